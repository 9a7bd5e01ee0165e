import {
  Box,
  Link,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { RecordContextProvider, useGetList, useGetMany, useTranslate, type RaRecord } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { ReferenceLink } from '../crud/ListExtras';
import { fieldsOf } from '../crud/description';
import { momentText } from '../crud/dates';
import { StateChip } from '../crud/values';
import { typeOfResource } from '../dataProvider/resourceTypes';
import { labelsOf, loadLabels } from '../labels';

/** The movements' own screen, whose labels (fields, reasons) the list below speaks in. */
const MOVEMENTS = 'movimentos-de-estoque';
/** The newest movements shown in the dialog; the rest are on the movements' screen. */
const SHOWN = 20;

/** The movements' labels, loaded once the dialog opens (a screen's first paint carries no other screen's texts). */
function useMovementLabels(): boolean {
  const [ready, setReady] = useState(() => !!labelsOf(MOVEMENTS));
  useEffect(() => {
    if (!ready) void loadLabels(MOVEMENTS).then(() => setReady(true));
  }, [ready]);
  return ready;
}

/**
 * Under a product link's fields in its dialog, every stock value the product wrote for its SKU at each location,
 * newest first: when, where, what the store had and what was written, why (the reason's chip) and the order that
 * caused it; the newest twenty, with a way to the rest.
 */
export function SkuMovements({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const ready = useMovementLabels();
  const headingId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const sku = typeof record.sku === 'string' ? record.sku : null;
  const filter = { client_id: record.client_id, sku };
  const { data, total, isPending, error } = useGetList(
    MOVEMENTS,
    { filter, sort: { field: 'created_at', order: 'DESC' }, pagination: { page: 1, perPage: SHOWN } },
    { enabled: !!sku && ready },
  );
  // Each location by its name, read once for the movements shown.
  const locationIds = [...new Set((data ?? []).map((m) => m.location_id).filter((id): id is string => !!id))];
  const { data: locations } = useGetMany('estoques', { ids: locationIds }, { enabled: locationIds.length > 0 });
  const own = (key: string, options?: Record<string, unknown>) =>
    translate(`resources.produtos-vinculados.movements.${key}`, options);
  // The table's headings are short (`columns`), a phone's list says each part as the movements' screen does.
  const field = (name: string) =>
    phone
      ? translate(`resources.${MOVEMENTS}.fields.${name}`)
      : translate(`resources.produtos-vinculados.movements.columns.${name}`);
  const tones = fieldsOf(typeOfResource(MOVEMENTS)).reason?.tones;

  let body: ReactNode;
  if (!sku) body = own('no_sku');
  else if (!ready || isPending) body = own('loading');
  else if (error) body = own('failed');
  else if (!data?.length) body = own('none');
  else {
    const where = (movement: RaRecord) =>
      movement.location_id
        ? (locations?.find((l) => l.id === movement.location_id)?.name ?? translate('app.list.empty_value'))
        : own('single_location');
    const order = (movement: RaRecord) =>
      movement.order_id ? (
        <RecordContextProvider value={movement}>
          <ReferenceLink source="order_id" screen="pedidos" />
        </RecordContextProvider>
      ) : (
        translate('app.list.empty_value')
      );
    const previous = (movement: RaRecord) =>
      movement.previous == null ? translate('app.list.empty_value') : Number(movement.previous).toLocaleString('pt-BR');
    const reason = (movement: RaRecord) => (
      <StateChip
        tone={tones?.[String(movement.reason)]}
        text={translate(`resources.${MOVEMENTS}.values.reason.${String(movement.reason)}`, { _: movement.reason })}
      />
    );
    const parts: [string, (movement: RaRecord) => ReactNode, boolean?][] = [
      ['created_at', (m) => momentText(m.created_at)],
      ['location_id', where],
      ['previous', previous, true],
      ['value', (m) => Number(m.value).toLocaleString('pt-BR'), true],
      ['reason', reason],
      ['order_id', order],
    ];
    body = phone ? (
      <Box component="ul" aria-labelledby={headingId} sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
        {data.map((movement) => (
          <Box
            component="li"
            key={movement.id}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, py: 1 }}
          >
            <Box
              component="dl"
              sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.25 }}
            >
              {parts.map(([name, show]) => (
                <Box key={name} sx={{ display: 'contents' }}>
                  <Box component="dt" sx={{ color: 'text.secondary' }}>
                    {field(name)}
                  </Box>
                  <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                    {show(movement)}
                  </Box>
                </Box>
              ))}
            </Box>
          </Box>
        ))}
      </Box>
    ) : (
      <TableContainer>
        <Table size="small" aria-labelledby={headingId}>
          <TableHead>
            <TableRow>
              {parts.map(([name, , numeric]) => (
                <TableCell key={name} align={numeric ? 'right' : 'left'} sx={{ px: 1 }}>
                  {field(name)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((movement) => (
              <TableRow key={movement.id}>
                {parts.map(([name, show, numeric]) => (
                  <TableCell
                    key={name}
                    align={numeric ? 'right' : 'left'}
                    sx={{ px: 1, whiteSpace: name === 'created_at' ? 'nowrap' : undefined }}
                  >
                    {show(movement)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );
  }
  const more = !!total && !!data && total > data.length;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} component="h3" variant="subtitle1" sx={{ fontWeight: 500, mb: 0.5 }}>
        {own('title')}
      </Typography>
      <Box sx={{ color: data?.length ? undefined : 'text.secondary' }}>{body}</Box>
      {more && (
        <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
          {own('more', { shown: data!.length, total })}{' '}
          <Link component={RouterLink} to={`/${MOVEMENTS}?filter=${encodeURIComponent(JSON.stringify(filter))}`}>
            {own('see_all')}
          </Link>
        </Typography>
      )}
    </Box>
  );
}
