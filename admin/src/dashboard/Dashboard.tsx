import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Title, useGetIdentity, useLogoutIfAccessDenied } from 'react-admin';
import { Link } from 'react-router-dom';
import { DashboardCountsDocument, type DashboardCountsQuery } from '../../../schema/generated/graphql';
import { graphql } from '../api';
import { HealthCard } from './HealthCard';

// The charts and their library come after the counts, in a chunk of their own.
const ActivityCharts = lazy(() => import('./ActivityCharts'));

/** A count that leads to its list. */
function CountCard({ label, count, to }: { label: string; count: number; to: string }) {
  return (
    <Card variant="outlined">
      <CardActionArea component={Link} to={to} sx={{ height: '100%' }}>
        <CardContent>
          <Typography color="text.secondary">{label}</Typography>
          <Typography variant="h4" component="p" sx={{ fontWeight: 500 }}>
            {count}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** The clients screen showing only the clients in one state. */
const clientsIn = (state: string) => `/clientes?filter=${encodeURIComponent(JSON.stringify({ sync_state: state }))}`;

/**
 * "Clientes parados": the clients in each state that needs a person (a credential to give or fix, failures to read,
 * a store that stopped us), in the states' declared order, each count leading to those clients.
 */
function StoppedClients({ counts }: { counts: DashboardCountsQuery }) {
  const states = [
    ['not_connected', 'Não conectados', counts.notConnected.count],
    ['partial', 'Com falhas', counts.partial.count],
    ['failed', 'Falharam', counts.failed.count],
    ['token_revoked', 'Token revogado', counts.tokenRevoked.count],
    ['suspended', 'Suspensos', counts.suspended.count],
    ['disconnected', 'Desconectados', counts.disconnected.count],
  ] as const;
  const stopped = states.reduce((sum, [, , count]) => sum + count, 0);
  return (
    <Card variant="outlined" component="section" aria-label="Clientes parados" sx={{ mt: 3, maxWidth: 720 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          Clientes parados: {stopped}
        </Typography>
        <Box sx={{ display: 'flex', columnGap: 2, rowGap: 0.5, flexWrap: 'wrap', mt: 1 }}>
          {states.map(([state, label, count]) => (
            <Typography key={state} component={Link} to={clientsIn(state)} color={count ? 'error' : 'primary'}>
              {label}: {count}
            </Typography>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

/** The orders screen showing only the orders in one state. */
const ordersIn = (state: string) => `/pedidos?filter=${encodeURIComponent(JSON.stringify({ state }))}`;

/**
 * "Pedidos parados": orders that wait for a person, held (with a reason to act on) or uncertain (a send whose outcome
 * is unknown), each count leading to those orders.
 */
function StoppedOrders({ held, uncertain, cancelRefused }: { held: number; uncertain: number; cancelRefused: number }) {
  const stopped = held + uncertain + cancelRefused;
  return (
    <Card variant="outlined" component="section" aria-label="Pedidos parados" sx={{ mt: 3, maxWidth: 420 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          Pedidos parados: {stopped}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 1 }}>
          <Typography component={Link} to={ordersIn('held')} color={held ? 'error' : 'primary'}>
            Aguardando pessoa: {held}
          </Typography>
          <Typography component={Link} to={ordersIn('uncertain')} color={uncertain ? 'error' : 'primary'}>
            Incertos: {uncertain}
          </Typography>
          <Typography
            component={Link}
            to={`/pedidos?filter=${encodeURIComponent(JSON.stringify({ cancel_refused: true }))}`}
            color={cancelRefused ? 'error' : 'primary'}
          >
            Cancelamento recusado: {cancelRefused}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}

/** The e-mails screen showing only the mail that failed for good. */
const FAILED_MAIL = `/emails?filter=${encodeURIComponent(JSON.stringify({ state: 'failed' }))}`;

/**
 * Mail that could not be sent after all its retries (superusers only): someone is waiting for it. The card leads to
 * those e-mails, with why each failed.
 */
function FailedMail({ count }: { count: number }) {
  return (
    <Card variant="outlined" sx={{ mt: 3, maxWidth: 420 }}>
      <CardActionArea component={Link} to={FAILED_MAIL}>
        <CardContent>
          <Typography variant="h6" component="h2">
            E-mails
          </Typography>
          <Typography color={count ? 'error' : undefined} sx={{ fontWeight: count ? 700 : undefined }}>
            E-mails que falharam: {count}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Não enviados depois de todas as tentativas.
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** The counts, asked in one request; the users and the failed mail only for superusers. */
function Counts({ superuser }: { superuser: boolean }) {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const { data, error } = useQuery<DashboardCountsQuery>({
    queryKey: ['dashboardCounts', superuser],
    queryFn: () => graphql(DashboardCountsDocument, { superuser }),
  });
  useEffect(() => {
    if (error) void logoutIfAccessDenied(error);
  }, [error, logoutIfAccessDenied]);
  if (!data) return null;
  return (
    <>
      <HealthCard counts={data} />
      <Box
        component="section"
        aria-label="Resumo"
        sx={{
          display: 'grid',
          gap: 2,
          mt: 3,
          maxWidth: 720,
          // Fixed columns: the layout grows to its content's smallest width, which auto-fill would set at the maximum.
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' },
        }}
      >
        <CountCard label="Clientes" count={data.clients.count} to="/clientes" />
        <CountCard label="Itens" count={data.items.count} to="/items" />
        {data.users && <CountCard label="Usuários" count={data.users.count} to="/admin" />}
      </Box>
      <StoppedClients counts={data} />
      <StoppedOrders
        held={data.heldOrders.count}
        uncertain={data.uncertainOrders.count}
        cancelRefused={data.cancelRefusedOrders.count}
      />
      {data.failedMail && <FailedMail count={data.failedMail.count} />}
      <Suspense fallback={null}>
        <ActivityCharts />
      </Suspense>
    </>
  );
}

/**
 * /: the greeting, every client's health (the worst first), how many clients, items and (for superusers) users there are, the clients and orders that wait for
 * a person, the failed mail, and the last 30 days in charts.
 */
export default function Dashboard() {
  const { identity } = useGetIdentity();
  return (
    <Box sx={{ p: { xs: 2, sm: 3 } }}>
      <Title title="Dashboard" />
      {identity && (
        <>
          <Typography variant="h5" component="h1" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            Olá, {identity.full_name || identity.email}
          </Typography>
          <Typography>Bem-vindo de volta, bom ver você de novo!</Typography>
          <Counts superuser={identity.is_superuser === true} />
        </>
      )}
    </Box>
  );
}
