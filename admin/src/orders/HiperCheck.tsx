import { Box, Typography } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import { dateFormatOf } from '../crud/values';
import { useScreenLang } from '../crud/ScreenLanguage';
import { sendAttempts } from './attempts';

const K = 'resources.pedidos.check';

/**
 * What Hiper's own screens show of the order as it was sent: its number and its observation (order-mapping.ts); a
 * shipment of several is `{number}-{k}` there.
 */
export const sentNumberOf = (record: RaRecord) => String(record.hiper_number ?? record.number ?? '');

/**
 * The order's state in the dialog and, for an uncertain or rejected one, what to look for in Hiper before choosing:
 * the sales order's number and observation as sent, and each send with its moment and what Hiper answered.
 */
export function OrderStateDetail({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const state = String(record.state ?? '');
  const label = translate(`resources.pedidos.values.state.${state}`, { _: state });
  if (state !== 'uncertain' && state !== 'rejected') return <>{label}</>;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <span>{label}</span>
      <HiperCheck record={record} state={state} />
    </Box>
  );
}

function HiperCheck({ record, state }: { record: RaRecord; state: 'uncertain' | 'rejected' }) {
  const translate = useTranslate();
  const format = dateFormatOf(useScreenLang() ?? 'pt-BR');
  const number = sentNumberOf(record);
  const note = translate(`${K}.note`, { number, id: String(record.nuvemshop_order_id ?? '') });
  const attempts = sendAttempts(record.history, record.state);
  const headingId = `hiper-check-${String(record.id)}`;
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, display: 'grid', gap: 1 }}
    >
      <Typography id={headingId} component="h3" variant="subtitle2">
        {translate(`${K}.title`)}
      </Typography>
      <Typography variant="body2">
        {translate(`${K}.${state}`, { number, note, hiper_order_id: String(record.hiper_order_id ?? '') })}
      </Typography>
      {state === 'uncertain' && <Typography variant="body2">{translate(`${K}.found`)}</Typography>}
      <Typography component="h4" variant="body2" sx={{ fontWeight: 500 }}>
        {translate(`${K}.attempts`)}
      </Typography>
      {attempts.length === 0 ? (
        <Typography variant="body2">{translate(`${K}.none`)}</Typography>
      ) : (
        <Box
          component="ol"
          aria-label={translate(`${K}.attempts`)}
          sx={{ m: 0, pl: 0, listStyle: 'none', display: 'grid', gap: 1 }}
        >
          {attempts.map((attempt, i) => (
            <Box component="li" key={i} sx={{ fontSize: 14 }}>
              <Box component="span" sx={{ display: 'block', fontWeight: 500 }}>
                {translate(`${K}.attempt`, {
                  n: i + 1,
                  at: attempt.at ? format.format(new Date(attempt.at)) : '',
                })}
              </Box>
              <Box component="span" sx={{ display: 'block' }}>
                {translate(`${K}.outcome.${attempt.outcome}`)}
                {attempt.said ? `: ${attempt.said}` : ''}
              </Box>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
