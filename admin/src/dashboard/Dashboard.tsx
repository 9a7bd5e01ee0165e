import { Box, Card, CardContent, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, useGetIdentity } from 'react-admin';
import { FailedMailCountDocument } from '../../../schema/generated/graphql';
import { graphql } from '../api';

/** Mail that could not be sent after all its retries (superusers only): someone is waiting for it. */
function FailedMail() {
  const { data } = useQuery({ queryKey: ['failedMailCount'], queryFn: () => graphql(FailedMailCountDocument) });
  if (!data) return null;
  const count = data.failed.count;
  return (
    <Card variant="outlined" sx={{ mt: 3, maxWidth: 420 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          Emails
        </Typography>
        <Typography color={count ? 'error' : undefined} sx={{ fontWeight: count ? 700 : undefined }}>
          Emails que falharam: {count}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Não enviados depois de todas as tentativas.
        </Typography>
      </CardContent>
    </Card>
  );
}

/** /: the greeting, and for superusers the count of failed mail. */
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
          {identity.is_superuser && <FailedMail />}
        </>
      )}
    </Box>
  );
}
