import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import {
  Box,
  Button,
  DialogActions,
  DialogContent,
  IconButton,
  InputAdornment,
  Skeleton,
  TextField,
  Typography,
} from '@mui/material';
import { Suspense, useState, type FormEvent } from 'react';
import { RecordContextProvider, useGetList, useTranslate, type RaRecord } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { ApiError } from '../api';
import { FormDialogFrame } from '../crud/dialogParts';
import { ReferenceLink } from '../crud/deferred';
import { fieldsOf } from '../crud/description';
import { DEFAULT_SORT } from '../crud/listAddress';
import { mutationOf } from '../crud/mutations';
import { StateChip } from '../crud/values';
import { dataProvider } from '../dataProvider';
import { useToast } from '../layout/useToast';
import { refusalText } from './storeRefusals';

const t = (name: string) => `resources.estoques.${name}`;
/** The key's bound, as the update's argument declares it. */
const KEY_MAX = mutationOf('updateLocation')?.args.hiper_token?.constraint?.maxLength ?? 4096;
const REASON = fieldsOf('StockMovement').reason;
/** The movements a location's dialog lists: the latest few; the Movimentos de estoque screen has the rest. */
const LATEST = 10;

/**
 * A location's dialog: its Hiper key ("Chave do Hiper", answered masked for everyone: left as shown, it is not sent;
 * emptied, the location follows the client's rule) and its latest stock movements.
 */
export function LocationDialog({
  record,
  onClose,
  onSaved,
}: {
  record: RaRecord;
  onClose: () => void;
  onSaved: () => void;
}) {
  const translate = useTranslate();
  const toast = useToast();
  const name = String(record.name ?? record.nuvemshop_location_id);
  const shown = record.hiper_token == null ? '' : String(record.hiper_token);
  const [key, setKey] = useState(shown);
  const [visible, setVisible] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const tooLong = key.length > KEY_MAX;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (tooLong) return;
    if (key === shown) return onClose();
    setSaving(true);
    setError(null);
    try {
      await dataProvider.update('estoques', {
        id: record.id,
        data: { hiper_token: key.trim() ? key : null },
        previousData: record,
      });
      toast(translate('app.notification.success'), translate(t('notifications.updated')));
      onSaved();
    } catch (failure) {
      // A refusal of the key itself is said on its field; anything else in a toast.
      const onField = failure instanceof ApiError && Array.isArray(failure.detail);
      if (onField) setError(refusalText(failure, translate));
      else toast(translate('app.notification.failure'), refusalText(failure, translate), 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormDialogFrame title={translate(t('edit.title'), { name })} onClose={onClose}>
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
        <DialogContent sx={{ pt: 1 }}>
          <TextField
            label={translate(t('fields.hiper_token'))}
            value={key}
            onChange={(event) => setKey(event.target.value)}
            type={visible ? 'text' : 'password'}
            autoComplete="off"
            fullWidth
            error={!!error || tooLong}
            helperText={
              tooLong ? translate(t('key_input.too_long'), { max: KEY_MAX }) : (error ?? translate(t('key_input.help')))
            }
            slotProps={{
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      aria-label={translate(t(visible ? 'key_input.hide' : 'key_input.show'))}
                      onClick={() => setVisible(!visible)}
                      edge="end"
                    >
                      {visible ? <VisibilityOffIcon /> : <VisibilityIcon />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          <Movements record={record} name={name} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate(t('key_input.cancel'))}</Button>
          <Button type="submit" variant="contained" disabled={saving || tooLong}>
            {translate(t('key_input.save'))}
          </Button>
        </DialogActions>
      </Box>
    </FormDialogFrame>
  );
}

/** The location's latest stock movements (newest first), read as every list is; an empty list says so. */
function Movements({ record, name }: { record: RaRecord; name: string }) {
  const translate = useTranslate();
  const { data = [], isPending } = useGetList('movimentos-de-estoque', {
    filter: { location_id: record.id },
    sort: DEFAULT_SORT,
    pagination: { page: 1, perPage: LATEST },
  });
  const m = (field: string) => `resources.movimentos-de-estoque.${field}`;
  return (
    <Box component="section" aria-label={translate(t('movements.table'), { name })} sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
        {translate(t('movements.title'))}
      </Typography>
      {isPending ? (
        <Skeleton height={40} />
      ) : !data.length ? (
        <Typography variant="body2">{translate(m('empty'))}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
          {data.map((movement) => (
            <Box
              component="li"
              key={movement.id}
              sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1.5, rowGap: 0.5 }}
            >
              <Box component="span" sx={{ fontWeight: 500 }}>
                {translate(m('fields.sku'))} {String(movement.sku)}
              </Box>
              <Box component="span">
                {translate(t('movements.from_to'), {
                  previous: movement.previous == null ? translate(t('movements.unknown')) : String(movement.previous),
                  value: String(movement.value),
                })}
              </Box>
              <StateChip
                tone={REASON.tones?.[String(movement.reason)]}
                text={translate(m(`values.reason.${String(movement.reason)}`), { _: String(movement.reason) })}
              />
              {movement.order_id ? (
                <RecordContextProvider value={movement}>
                  <Suspense fallback={null}>
                    <ReferenceLink source="order_id" screen="pedidos" />
                  </Suspense>
                </RecordContextProvider>
              ) : null}
            </Box>
          ))}
        </Box>
      )}
      <Button
        component={RouterLink}
        to={`/movimentos-de-estoque?filter=${encodeURIComponent(JSON.stringify({ location_id: record.id }))}`}
        size="small"
        sx={{ mt: 1, px: 0 }}
      >
        {translate(t('movements.all'))}
      </Button>
    </Box>
  );
}
