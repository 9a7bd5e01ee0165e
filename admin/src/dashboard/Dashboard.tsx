import { Box, Typography } from '@mui/material';
import { Title, useGetIdentity } from 'react-admin';

/** /: the greeting. */
export default function Dashboard() {
  const { identity } = useGetIdentity();
  return (
    <Box sx={{ p: { xs: 2, sm: 3 } }}>
      <Title title="Dashboard" />
      {identity && (
        <>
          <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
            Olá, {identity.full_name || identity.email}
          </Typography>
          <Typography>Bem-vindo de volta, bom ver você de novo!</Typography>
        </>
      )}
    </Box>
  );
}
