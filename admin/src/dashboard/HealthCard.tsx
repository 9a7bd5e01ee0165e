import { Box, Card, CardContent, Chip, Link as MuiLink, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import type { DashboardCountsQuery } from '../../../schema/generated/graphql';
import { healthNames } from '../../../schema/staff-notes';
import { LINK_LABELS, reasonLink, reasonsOf } from '../health/reasonLinks';

/** The Saúde screen showing only the clients in one health. */
const healthIn = (health: string) => `/saude?filter=${encodeURIComponent(JSON.stringify({ health }))}`;

const TONES = { critical: 'error', attention: 'warning', ok: 'success' } as const;

/**
 * "Saúde dos clientes", the dashboard's first card: how many clients are critical, need attention or are up to date
 * (each leading to them on the Saúde screen), and the worst five by name with their first reason and its link.
 */
export function HealthCard({ counts }: { counts: DashboardCountsQuery }) {
  const troubled = counts.allClientHealths.filter((row) => row.health !== 'ok');
  const levels = [
    ['critical', counts.healthCritical.count],
    ['attention', counts.healthAttention.count],
    ['ok', counts._allClientHealthsMeta.count - counts.healthCritical.count - counts.healthAttention.count],
  ] as const;
  return (
    <Card variant="outlined" component="section" aria-label="Saúde dos clientes" sx={{ mt: 3, maxWidth: 720 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          Saúde dos clientes
        </Typography>
        <Box sx={{ display: 'flex', columnGap: 2, rowGap: 0.5, flexWrap: 'wrap', mt: 1 }}>
          {levels.map(([health, count]) => (
            <Typography
              key={health}
              component={Link}
              to={healthIn(health)}
              // Red for critical clients, as the other cards' counts that need a person; the rest in the links' colour.
              color={count && health === 'critical' ? 'error' : 'primary'}
              sx={{ fontWeight: count && health !== 'ok' ? 700 : undefined }}
            >
              {healthNames[health]}: {count}
            </Typography>
          ))}
        </Box>
        {troubled.length > 0 && (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2, display: 'grid', gap: 1.5 }}>
            {troubled.map((row) => {
              const [first] = reasonsOf(row.reasons);
              const link = first && reasonLink(row.client_id, first);
              return (
                <li key={row.id}>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                    <Chip size="small" color={TONES[row.health]} label={healthNames[row.health]} />
                    <Typography component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                      {row.client_name}
                    </Typography>
                  </Box>
                  {first && (
                    <Typography variant="body2" sx={{ mt: 0.5 }}>
                      {first.text}{' '}
                      <MuiLink component={Link} to={link!.to}>
                        {LINK_LABELS[link!.label]}
                      </MuiLink>
                    </Typography>
                  )}
                </li>
              );
            })}
          </Box>
        )}
        <MuiLink component={Link} to="/saude" sx={{ display: 'inline-block', mt: 2 }}>
          Ver a saúde de todos os clientes
        </MuiLink>
      </CardContent>
    </Card>
  );
}
