import { Box, Button, Card, CardContent, Typography, useTheme, type Theme } from '@mui/material';
import { darken, lighten } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useLogoutIfAccessDenied, type RaRecord } from 'react-admin';
import { ActivityChartsDocument, type ActivityChartsQuery } from '../../../schema/generated/graphql';
import { orderStateNames } from '../../../schema/staff-notes';
import { graphql } from '../api';
import { fieldsOf, type Tone } from '../crud/description';
import runLabels from '../labels/sincronizacoes';
import { unseen } from '../layout/unseen';

type Day = ActivityChartsQuery['dailyActivity']['days'][number];
const DAYS = 30;

/** One bar of a day: its name, how to read its number from a day, its colour. */
interface Series {
  key: string;
  label: string;
  value: (day: Day) => number;
  color: string;
}

/** 2026-12-04 as 04/12. */
const dayMonth = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/**
 * Each state in its declared tone's colour, from the theme (so dark mode has its own); states sharing a tone get
 * shades of it, lighter in dark mode, darker in light, so a stack's parts stay apart.
 */
function stateSeries(
  theme: Theme,
  states: readonly string[],
  tones: Readonly<Record<string, Tone>> | undefined,
  label: (state: string) => string,
  value: (state: string) => (day: Day) => number,
): Series[] {
  const seen: Record<string, number> = {};
  return states.map((state) => {
    const tone = tones?.[state];
    const base = tone ? theme.palette[tone].main : theme.palette.grey[500];
    const nth = (seen[tone ?? 'neutral'] = (seen[tone ?? 'neutral'] ?? -1) + 1);
    const shift = Math.min(nth * 0.35, 0.7);
    const color = nth === 0 ? base : theme.palette.mode === 'dark' ? lighten(base, shift) : darken(base, shift);
    return { key: state, label: label(state), value: value(state), color };
  });
}

/**
 * A chart of the days with its title, its numbers in a table a screen reader reads (the drawing hidden from it), and
 * "Ver números" showing that table to anyone. Only the series that happened are drawn and listed.
 */
function ActivityChart({
  title,
  days,
  series,
  stacked,
  empty,
}: {
  title: string;
  days: Day[];
  series: Series[];
  stacked?: boolean;
  empty: string;
}) {
  const titleId = useId();
  const [shown, setShown] = useState(false);
  const drawn = series.filter((s) => days.some((day) => s.value(day) > 0));
  return (
    <Card variant="outlined" component="figure" aria-labelledby={titleId} sx={{ m: 0, minWidth: 0 }}>
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', flexWrap: 'wrap', columnGap: 1 }}>
          <Typography id={titleId} component="figcaption" variant="subtitle1" sx={{ fontWeight: 500, mr: 'auto' }}>
            {title}
          </Typography>
          {drawn.length > 0 && (
            <Button size="small" onClick={() => setShown((was) => !was)} aria-expanded={shown}>
              {shown ? 'Ocultar números' : 'Ver números'}
            </Button>
          )}
        </Box>
        {drawn.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 2 }}>
            {empty}
          </Typography>
        ) : (
          <>
            <Box aria-hidden sx={{ width: '100%', minWidth: 0 }}>
              <BarChart
                height={220}
                margin={{ left: 0, right: 8, top: 16, bottom: 0 }}
                xAxis={[{ scaleType: 'band', data: days.map((day) => dayMonth(day.day)), tickLabelInterval: 'auto' }]}
                yAxis={[{ tickMinStep: 1, width: 36 }]}
                series={drawn.map((s) => ({
                  id: s.key,
                  label: s.label,
                  data: days.map(s.value),
                  color: s.color,
                  stack: stacked ? 'day' : undefined,
                }))}
                hideLegend={drawn.length < 2}
                slotProps={{
                  legend: { direction: 'horizontal', position: { vertical: 'bottom', horizontal: 'start' } },
                }}
                skipAnimation
              />
            </Box>
            {/* Shown, it scrolls within its own box: reachable by keyboard, named for what it holds. */}
            <Box
              role={shown ? 'region' : undefined}
              aria-label={shown ? `Números: ${title}` : undefined}
              tabIndex={shown ? 0 : undefined}
              sx={shown ? { maxHeight: 320, overflow: 'auto', mt: 1 } : unseen}
            >
              <Box
                component="table"
                sx={{
                  borderCollapse: 'collapse',
                  width: '100%',
                  fontSize: 14,
                  '& th, & td': { px: 1, py: 0.25, textAlign: 'right', borderBottom: 1, borderColor: 'divider' },
                  '& th:first-of-type': { textAlign: 'left' },
                }}
              >
                <caption style={unseen}>{title}</caption>
                <thead>
                  <tr>
                    <th scope="col">Dia</th>
                    {drawn.map((s) => (
                      <th key={s.key} scope="col">
                        {s.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {days.map((day) => (
                    <tr key={day.day}>
                      <th scope="row">{dayMonth(day.day)}</th>
                      {drawn.map((s) => (
                        <td key={s.key}>{s.value(day)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </Box>
            </Box>
          </>
        )}
      </CardContent>
    </Card>
  );
}

const RUN_STATES = ['succeeded', 'partial', 'failed', 'running', 'queued'] as const;
const ORDER_STATES = Object.keys(orderStateNames) as (keyof typeof orderStateNames)[];

/** The four charts of the days: everyone's, or one client's. */
export function ActivityCharts({
  clientId,
  heading = 'h2',
  narrow = false,
}: {
  clientId?: string;
  heading?: 'h2' | 'h3';
  /** One chart a row whatever the screen's width (a dialog's). */
  narrow?: boolean;
}) {
  const theme = useTheme();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const { data, error } = useQuery<ActivityChartsQuery>({
    queryKey: ['activityCharts', clientId ?? null],
    queryFn: () => graphql(ActivityChartsDocument, { client_id: clientId, days: DAYS }),
  });
  useEffect(() => {
    if (error) void logoutIfAccessDenied(error);
  }, [error, logoutIfAccessDenied]);
  const headingId = useId();
  const days = data?.dailyActivity.days;
  const runs = stateSeries(
    theme,
    RUN_STATES,
    fieldsOf('SyncRun').state.tones,
    (state) => runLabels.values.state[state as keyof typeof runLabels.values.state],
    (state) => (day) => day.runs[state as keyof Day['runs']],
  );
  const orders = stateSeries(
    theme,
    ORDER_STATES,
    fieldsOf('Order').state.tones,
    (state) => orderStateNames[state as keyof typeof orderStateNames],
    (state) => (day) => day.orders[state as keyof Day['orders']],
  );
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3, minWidth: 0, width: '100%' }}>
      <Typography id={headingId} variant="h6" component={heading} sx={{ mb: 1 }}>
        Últimos 30 dias
      </Typography>
      {error ? (
        <Typography color="text.secondary">Não foi possível ler a atividade dos últimos dias.</Typography>
      ) : !days ? (
        <Typography color="text.secondary">Carregando…</Typography>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: narrow ? undefined : 'repeat(2, minmax(0, 1fr))' },
          }}
        >
          <ActivityChart
            title="Sincronizações por resultado"
            days={days}
            series={runs}
            stacked
            empty="Nenhuma sincronização nestes dias."
          />
          <ActivityChart
            title="Produtos gravados na loja"
            days={days}
            series={[
              {
                key: 'products_written',
                label: 'Produtos gravados',
                value: (day) => day.products_written,
                color: theme.palette.primary.main,
              },
            ]}
            empty="Nenhum produto gravado nestes dias."
          />
          <ActivityChart
            title="Pedidos por estado"
            days={days}
            series={orders}
            stacked
            empty="Nenhum pedido recebido nestes dias."
          />
          <ActivityChart
            title="Limites da Nuvemshop (429)"
            days={days}
            series={[
              {
                key: 'rate_limited',
                label: 'Erros 429',
                value: (day) => day.rate_limited,
                color: theme.palette.warning.main,
              },
            ]}
            empty="Nenhum 429 nestes dias."
          />
        </Box>
      )}
    </Box>
  );
}

/** The dashboard's charts: everyone's days. */
export default function DashboardActivity() {
  return <ActivityCharts />;
}

/** A client's dialog: its own days, under its inputs. */
export function ClientActivity({ record }: { record: RaRecord }) {
  return <ActivityCharts clientId={String(record.id)} heading="h3" narrow />;
}
