import { Box, Card, CardContent, Typography } from '@mui/material';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { takeOverPrerendered } from '../prerendered/takeOver';

/**
 * The frame of the pages outside the layout: the product's name over a card. Drawn first over a page the build rendered
 * (prerendered/), it takes that page over before the browser paints.
 */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const frame = useRef<HTMLElement>(null);
  const carryOver = useRef<() => void>(undefined);
  const [formReady, setFormReady] = useState(false);
  useLayoutEffect(() => {
    if (frame.current) carryOver.current = takeOverPrerendered(frame.current);
  }, []);
  // react-admin's form resets its values in its first effect, and its fields register again only as it renders
  // after that: a value typed or a form sent before then would go unseen and unchecked. This update, made beside the
  // reset, is rendered with it; the carry-over runs once that render is in.
  useEffect(() => {
    if (carryOver.current) setFormReady(true);
  }, []);
  useEffect(() => {
    if (!formReady) return;
    carryOver.current?.();
    carryOver.current = undefined;
  }, [formReady]);
  return (
    <Box
      ref={frame}
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
