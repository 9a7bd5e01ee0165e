import { Box, Button, Collapse, Typography } from '@mui/material';
import { useState } from 'react';

/** What a screen shows when it fails to render. */
export function ErrorFallback({ error }: { error?: Error }) {
  const [open, setOpen] = useState(false);
  return (
    <Box role="alert" sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start' }}>
      <Typography variant="h5" component="h1">
        Something went wrong!
      </Typography>
      <Button variant="outlined" onClick={() => setOpen(!open)}>
        {open ? 'Hide Error' : 'Show Error'}
      </Button>
      <Collapse in={open}>
        <Box component="pre" sx={{ whiteSpace: 'pre-wrap', fontSize: 12 }}>
          {error?.message}
        </Box>
      </Collapse>
    </Box>
  );
}
