import { Box, Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** The frame of the pages outside the layout: the product's name over a card. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography variant="h5" component="p" color="primary" align="center" sx={{ fontWeight: 700 }}>
            Sistema de Integração
          </Typography>
          <Typography variant="h6" component="h1" align="center" sx={{ mb: 1 }}>
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
