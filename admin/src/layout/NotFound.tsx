import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router-dom';

/** Any unknown path. */
export default function NotFound() {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        p: 2,
      }}
    >
      <Typography variant="h1" component="h1" color="primary" sx={{ fontWeight: 700 }}>
        404
      </Typography>
      <Typography variant="h4" component="p">
        Oops!
      </Typography>
      <Typography component="p">Page not found.</Typography>
      <Button component={Link} to="/" variant="outlined">
        Go back
      </Button>
    </Box>
  );
}
