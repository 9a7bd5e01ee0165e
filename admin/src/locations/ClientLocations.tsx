import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import {
  Alert,
  Box,
  Button,
  Card,
  IconButton,
  Skeleton,
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
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Title, useGetList, useGetOne, useTranslate, type RaRecord } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { liveQuery } from '../crud/live';
import { runRecordAction } from '../crud/recordAction';
import { StateChip, stateHint } from '../crud/values';
import { dataProvider } from '../dataProvider';
import { declarationOf, isOffered } from '../dataProvider/resourceTypes';
import { fieldsOf } from '../crud/description';
import { useToast } from '../layout/useToast';
import { LocationDialog } from './LocationDialog';
import { refusalText } from './storeRefusals';
import { unseen } from '../layout/unseen';

const SCREEN = 'estoques';
const t = (name: string) => `resources.${SCREEN}.${name}`;
const STATE = fieldsOf('Location').stock_state;

const byPriority = (a: RaRecord, b: RaRecord) => Number(a.priority) - Number(b.priority);

/** The client's own name as people know it: its store's name, else its address. */
const clientName = (client: RaRecord | undefined) => (client ? String(client.name || client.url || '') : '');

/**
 * One client's locations, in the store's priority order: moved up or down (buttons named for each location, usable by
 * keyboard) and the new order saved to the store; "Tornar padrão" on each live location that is not the default; each
 * one's Hiper key and latest stock movements in its dialog; a location the store deleted shown last, marked, not
 * movable. "Ler estoques da loja" reads them from the store again. The store's refusals are told in toasts.
 */
export function ClientLocations({ clientId }: { clientId: string }) {
  const translate = useTranslate();
  const toast = useToast();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const { data: client, refetch: refetchClient } = useGetOne('clientes', { id: clientId }, liveQuery);
  const {
    data: rows = [],
    isPending,
    refetch,
  } = useGetList(
    SCREEN,
    {
      filter: { client_id: clientId },
      sort: { field: 'priority', order: 'ASC' },
      pagination: { page: 1, perPage: 500 },
    },
    liveQuery,
  );
  // A read's end (or a change taken by the store) moves the client's mark: the rows are read again at once.
  const readAt = client?.locations_read_at as string | undefined;
  useEffect(() => {
    if (readAt) void refetch();
  }, [readAt, refetch]);

  const live = rows.filter((row) => !row.deleted_at).sort(byPriority);
  const deleted = rows.filter((row) => row.deleted_at).sort(byPriority);
  const [draft, setDraft] = useState<string[] | null>(null);
  const ordered = draft
    ? [
        ...draft.flatMap((id) => live.filter((row) => row.id === id)),
        ...live.filter((row) => !draft.includes(String(row.id))),
      ]
    : live;
  const dirty = draft !== null && ordered.map((row) => row.id).join() !== live.map((row) => row.id).join();
  const [busy, setBusy] = useState(false);
  const [told, setTold] = useState('');
  const [editing, setEditing] = useState<RaRecord | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  // The button a move leaves the focus on, once the rows are drawn in their new order.
  const focus = useRef<string | null>(null);
  useEffect(() => {
    if (!focus.current) return;
    buttons.current.get(focus.current)?.focus();
    focus.current = null;
  });

  const name = (row: RaRecord) => String(row.name ?? row.nuvemshop_location_id);
  const move = (row: RaRecord, by: -1 | 1) => {
    const ids = ordered.map((r) => String(r.id));
    const from = ids.indexOf(String(row.id));
    const to = from + by;
    if (to < 0 || to >= ids.length) return;
    [ids[from], ids[to]] = [ids[to], ids[from]];
    setDraft(ids);
    setTold(translate(t('moved'), { name: name(row), place: to + 1, count: ids.length }));
    // The button pressed keeps the focus; at the top or the bottom, which disables it, the other one takes it.
    const edge = (by === -1 && to === 0) || (by === 1 && to === ids.length - 1);
    focus.current = `${row.id}:${(by === -1) !== edge ? 'up' : 'down'}`;
  };

  const save = async () => {
    setBusy(true);
    try {
      await dataProvider.recordAction(SCREEN, {
        id: clientId,
        mutation: 'setLocationPriorities',
        variables: { location_ids: ordered.map((row) => String(row.id)) },
      });
      toast(translate(t('order.saved.title')), translate(t('order.saved.description')));
      await refetch();
      setDraft(null);
    } catch (error) {
      toast(translate(t('order.failed')), refusalText(error, translate), 'error');
    } finally {
      setBusy(false);
    }
  };

  const makeDefault = async (row: RaRecord) => {
    setBusy(true);
    try {
      await dataProvider.recordAction(SCREEN, { id: String(row.id), mutation: 'setDefaultLocation' });
      toast(
        translate(t('make_default.done.title')),
        translate(t('make_default.done.description'), { name: name(row) }),
      );
      await refetch();
    } catch (error) {
      toast(translate(t('make_default.failed')), refusalText(error, translate), 'error');
    } finally {
      setBusy(false);
    }
  };

  const readAction = declarationOf('clientes').actions?.find((action) => action.name === 'read_locations');
  const read = async () => {
    if (!client || !readAction) return;
    setBusy(true);
    await runRecordAction({
      resource: SCREEN,
      action: readAction,
      record: client,
      name: clientName(client),
      translate,
      toast,
    }).finally(() => setBusy(false));
    void refetchClient();
  };

  const title = client ? translate(t('of_client'), { name: clientName(client) }) : translate(t('title'));
  const tableName = translate(t('table_of_client'), { name: clientName(client) });
  const controls = (row: RaRecord, place: number) => (
    <RowControls
      row={row}
      name={name(row)}
      first={place === 0}
      last={place === ordered.length - 1}
      busy={busy}
      register={(key, element) => buttons.current.set(key, element)}
      onMove={(by) => move(row, by)}
      onDefault={() => void makeDefault(row)}
      onEdit={() => setEditing(row)}
    />
  );
  const all = [...ordered.map((row, place) => ({ row, place })), ...deleted.map((row) => ({ row, place: -1 }))];

  return (
    <Box sx={{ p: { xs: 1, sm: 3 }, width: '100%', boxSizing: 'border-box', contain: 'inline-size' }}>
      <Title title={title} preferenceKey={false} />
      <Button component={RouterLink} to="/clientes" size="small" sx={{ mb: 1 }}>
        {translate(t('back'))}
      </Button>
      <Typography variant="h5" component="h1" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary', maxWidth: 760 }}>
        {translate(t('intro'))}
      </Typography>
      {client?.locations_error ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate(t('read_failed'), { reason: String(client.locations_error) })}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Button
          variant="contained"
          onClick={() => void save()}
          disabled={!dirty || busy}
          // Saved or not, the order shown is what would be sent.
        >
          {translate(t('order.save'))}
        </Button>
        {dirty && (
          <Button onClick={() => setDraft(null)} disabled={busy}>
            {translate(t('order.discard'))}
          </Button>
        )}
        <Button
          variant="outlined"
          onClick={() => void read()}
          disabled={busy || !client || !readAction || !isOffered(readAction, client)}
          sx={{ ml: { sm: 'auto' } }}
        >
          {translate(t('actions.read_locations.label'))}
        </Button>
        {dirty && (
          <Typography variant="body2" sx={{ width: '100%', color: 'textShade.warning' }}>
            {translate(t('order.unsaved'))}
          </Typography>
        )}
      </Box>
      <Box role="status" sx={unseen}>
        {told}
      </Box>
      <Card>
        {isPending ? (
          <Box aria-label={tableName} aria-busy sx={{ p: 2 }}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={48} />
            ))}
          </Box>
        ) : !rows.length ? (
          <Typography sx={{ p: 2 }}>{translate(t('empty_client'))}</Typography>
        ) : phone ? (
          <Box component="ul" aria-label={tableName} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {all.map(({ row, place }) => (
              <Box component="li" key={row.id} sx={{ p: 1.5, '& + &': { borderTop: 1, borderColor: 'divider' } }}>
                <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}>
                  <Typography component="span" sx={{ fontWeight: 500, color: 'text.secondary' }}>
                    {place >= 0 ? translate(t('place'), { place: place + 1 }) : null}
                  </Typography>
                  <LocationName row={row} />
                </Box>
                <Box
                  component="dl"
                  sx={{
                    display: 'grid',
                    gridTemplateColumns: 'auto minmax(0, 1fr)',
                    gap: 0.5,
                    columnGap: 1.5,
                    m: 0,
                    mt: 0.5,
                    typography: 'body2',
                    '& dt': { color: 'text.secondary' },
                    '& dd': { m: 0, overflowWrap: 'anywhere' },
                  }}
                >
                  <dt>{translate(t('fields.hiper_token'))}</dt>
                  <dd>
                    <KeyText row={row} />
                  </dd>
                  <dt>{translate(t('fields.stock_state'))}</dt>
                  <dd>
                    <StockState row={row} />
                  </dd>
                </Box>
                <Box sx={{ mt: 1 }}>{controls(row, place)}</Box>
              </Box>
            ))}
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" aria-label={tableName}>
              <TableHead>
                <TableRow>
                  {['priority', 'name', 'hiper_token', 'stock_state'].map((field) => (
                    <TableCell key={field}>{translate(t(`fields.${field}`))}</TableCell>
                  ))}
                  <TableCell>{translate('app.list.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {all.map(({ row, place }) => (
                  <TableRow key={row.id}>
                    <TableCell sx={{ width: 72 }}>
                      {place >= 0 ? translate(t('place'), { place: place + 1 }) : '—'}
                    </TableCell>
                    <TableCell>
                      <LocationName row={row} />
                    </TableCell>
                    <TableCell>
                      <KeyText row={row} />
                    </TableCell>
                    <TableCell sx={{ maxWidth: 320 }}>
                      <StockState row={row} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{controls(row, place)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Card>
      {editing && (
        <LocationDialog
          record={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refetch();
          }}
        />
      )}
    </Box>
  );
}

/** A location's name, with what marks it: the store's default, or deleted in the store. */
function LocationName({ row }: { row: RaRecord }) {
  const translate = useTranslate();
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
      <Box component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {String(row.name ?? row.nuvemshop_location_id)}
      </Box>
      {row.is_default && !row.deleted_at ? <StateChip tone="success" text={translate(t('default_chip'))} /> : null}
      {row.deleted_at ? <StateChip tone="warning" text={translate(t('deleted_chip'))} /> : null}
    </Box>
  );
}

/** Whether the location has a Hiper key of its own: the gateway answers it masked, for everyone. */
function KeyText({ row }: { row: RaRecord }) {
  const translate = useTranslate();
  return (
    <>{row.hiper_token ? translate(t('key.set'), { masked: String(row.hiper_token) }) : translate(t('key.unset'))}</>
  );
}

/** The location's last stock run as a chip of its tone, and its reason under it. */
function StockState({ row }: { row: RaRecord }) {
  const translate = useTranslate();
  const value = String(row.stock_state);
  return (
    <Box component="span" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
      <StateChip
        tone={STATE.tones?.[value]}
        text={translate(t(`values.stock_state.${value}`), { _: value })}
        hint={stateHint(SCREEN, 'stock_state', value, translate)}
      />
      {row.stock_error ? (
        <Box component="span" sx={{ typography: 'body2', color: 'text.secondary', overflowWrap: 'anywhere' }}>
          {String(row.stock_error)}
        </Box>
      ) : null}
    </Box>
  );
}

function RowControls({
  row,
  name,
  first,
  last,
  busy,
  register,
  onMove,
  onDefault,
  onEdit,
}: {
  row: RaRecord;
  name: string;
  first: boolean;
  last: boolean;
  busy: boolean;
  register: (key: string, element: HTMLButtonElement | null) => void;
  onMove: (by: -1 | 1) => void;
  onDefault: () => void;
  onEdit: () => void;
}): ReactNode {
  const translate = useTranslate();
  const live = !row.deleted_at;
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5 }}>
      {live && (
        <>
          <IconButton
            size="small"
            aria-label={translate(t('order.up'), { name })}
            title={translate(t('order.up'), { name })}
            disabled={first || busy}
            ref={(element) => register(`${row.id}:up`, element)}
            onClick={() => onMove(-1)}
          >
            <ArrowUpwardIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            aria-label={translate(t('order.down'), { name })}
            title={translate(t('order.down'), { name })}
            disabled={last || busy}
            ref={(element) => register(`${row.id}:down`, element)}
            onClick={() => onMove(1)}
          >
            <ArrowDownwardIcon fontSize="small" />
          </IconButton>
        </>
      )}
      {live && !row.is_default && (
        <Button
          size="small"
          onClick={onDefault}
          disabled={busy}
          aria-label={translate(t('make_default.aria'), { name })}
        >
          {translate(t('make_default.label'))}
        </Button>
      )}
      <Button size="small" onClick={onEdit} aria-label={translate(t('edit.aria'), { name })}>
        {translate(t('edit.label'))}
      </Button>
    </Box>
  );
}
