import { Box, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { rest } from '../api';
import { useToast } from '../layout/useToast';

export const REDIRECT_DELAY_MS = 500;

/** /callback?code=…: completes the store's authorization, then goes to the checkout. */
export default function CallbackPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  const toast = useToast();
  const sent = useRef(false);

  useEffect(() => {
    if (!code || sent.current) return;
    sent.current = true; // the code is single-use: send it once, even when effects run twice
    rest<{ checkout_url: string }>('POST', '/callback/authorize', { code })
      .then((answer) => {
        toast('Sucesso!', 'Redirecionando para pagamento...');
        setTimeout(() => window.location.assign(answer.checkout_url), REDIRECT_DELAY_MS);
      })
      .catch(() => {
        // A failed authorization shows nothing.
      });
  }, [code, toast]);

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}
    >
      <Typography variant="h4" component="h1" align="center">
        Autorização bem sucedida!
      </Typography>
    </Box>
  );
}
