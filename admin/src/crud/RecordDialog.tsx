import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Fragment, Suspense, useId, useMemo, type ComponentType, type ReactNode } from 'react';
import {
  CreateBase,
  EditBase,
  RecordContextProvider,
  SimpleForm,
  useGetOne,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { isNetworkFailure } from '../api';
import { declarationOf, recordTitle, screenOfType, typeOfResource } from '../dataProvider/resourceTypes';
import { ReferenceLink } from './ListExtras';
import { fieldsOf } from './description';
import { defaultText, stateNotes } from './values';
import { useFailureToast } from '../layout/useToast';
import { createData, createDefaults, formInputs, updateData } from './formInputs';
import { useScreenLang } from './ScreenLanguage';
import { EntriesTable, Timeline } from './FieldDisplay';
import { liveRecordQuery } from './live';
import {
  type DialogProps,
  formProps,
  type FormCustomization,
  ordered,
  FormInputs,
  RecordActionButtons,
  DialogToolbar,
  FormDialogFrame,
  useSaved,
} from './dialogParts';

/** Adds a record of the resource: the create mutation's arguments as inputs, validated as the schema bounds them. */
export function CreateDialog({
  resource,
  title,
  onClose,
  form = {},
}: Omit<DialogProps, 'children'> & { form?: FormCustomization }) {
  const inputs = useMemo(
    () => ordered(formInputs(resource, 'create'), form.order, form.omit),
    [resource, form.order, form.omit],
  );
  const defaults = useMemo(() => createDefaults(inputs, form.createDefaults), [inputs, form.createDefaults]);
  const mutationOptions = useSaved(onClose, `resources.${resource}.notifications.created`);
  return (
    <FormDialogFrame title={title} onClose={onClose}>
      <CreateBase
        resource={resource}
        redirect={false}
        transform={(values: Record<string, unknown>) => createData(inputs, values)}
        mutationOptions={mutationOptions}
      >
        <SimpleForm
          {...formProps}
          defaultValues={defaults}
          component={DialogContent}
          toolbar={<DialogToolbar onCancel={onClose} />}
          sx={{ pt: 1 }}
        >
          <FormInputs resource={resource} mode="create" inputs={inputs} additional={form.additionalInputs} />
        </SimpleForm>
      </CreateBase>
    </FormDialogFrame>
  );
}

/** What the record's fields say beside its states, above the inputs: a client's missing Nuvemshop permissions. */
function RecordNotes({ resource }: { resource: string }) {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record) return null;
  const fields = fieldsOf(typeOfResource(resource));
  const notes = Object.keys(fields)
    .filter((name) => fields[name].values)
    .flatMap((name) => stateNotes(resource, record, name, translate));
  return notes.length ? (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {notes.join(' ')}
    </Alert>
  ) : null;
}

/** What the resource's dialog shows under its inputs (recordPanels.ts), its code loaded when first shown. */
function RecordPanel({ panel: Panel }: { panel?: ComponentType<{ record: RaRecord }> }) {
  const record = useRecordContext();
  if (!Panel || !record) return null;
  return (
    <Suspense fallback={null}>
      <Panel record={record} />
    </Suspense>
  );
}

/** Edits a record: the update mutation's arguments as inputs; only what changed is sent. */
export function EditDialog({
  resource,
  title,
  record,
  onClose,
  form = {},
  representation = (shown: RaRecord) => recordTitle(resource, shown),
  panel,
}: Omit<DialogProps, 'children'> & {
  record: RaRecord;
  form?: FormCustomization;
  /** What the dialog shows under its inputs (a client's charts). */
  panel?: ComponentType<{ record: RaRecord }>;
  /** How the record is named in its actions' toasts. */
  representation?: (record: RaRecord) => string;
}) {
  const inputs = useMemo(
    () => ordered(formInputs(resource, 'edit'), form.order, form.omit),
    [resource, form.order, form.omit],
  );
  const mutationOptions = useSaved(onClose, `resources.${resource}.notifications.updated`);
  const failed = useFailureToast();
  const refresh = useRefresh();
  // The record could not be read again: told as any failure (react-admin would say it does not exist, and leave for
  // the list). Offline, the dialog stays with the row's values; a record gone meanwhile closes it.
  const onReadError = (error: unknown) => {
    failed(error);
    if (isNetworkFailure(error)) return;
    onClose();
    refresh();
  };
  return (
    <FormDialogFrame title={title} onClose={onClose}>
      <EditBase
        resource={resource}
        id={record.id}
        redirect={false}
        mutationMode="pessimistic"
        // Read again while open: what changes meanwhile (a client's state) shows, what is being typed stays (below).
        queryOptions={{ placeholderData: record, onError: onReadError, ...liveRecordQuery }}
        transform={(values: Record<string, unknown>, options?: { previousData?: RaRecord }) =>
          updateData(inputs, values, options?.previousData ?? record)
        }
        mutationOptions={mutationOptions}
      >
        <SimpleForm
          {...formProps}
          resetOptions={{ keepDirtyValues: true, keepErrors: true }}
          component={DialogContent}
          toolbar={
            <DialogToolbar
              onCancel={onClose}
              start={
                declarationOf(resource).actions?.length ? (
                  <RecordActionButtons resource={resource} representation={representation} />
                ) : undefined
              }
            />
          }
          sx={{ pt: 1 }}
        >
          <RecordNotes resource={resource} />
          <FormInputs resource={resource} mode="edit" inputs={inputs} additional={form.additionalInputs} />
          <RecordPanel panel={panel} />
        </SimpleForm>
      </EditBase>
    </FormDialogFrame>
  );
}

/**
 * A record of a read-only resource, every field the schema gives it under its label, as the list reads them (dates in
 * the viewer's locale, states by their labels); not the fields it marks @hidden, which are bookkeeping.
 */
export function ShowDialog({
  resource,
  title,
  record: row,
  onClose,
  details = {},
  after,
}: {
  resource: string;
  title: string;
  record: RaRecord;
  onClose: () => void;
  /** Fields the screen draws itself, by name. */
  details?: Record<string, (record: RaRecord) => ReactNode>;
  /** What the screen shows under the fields (a product link's stock movements). */
  after?: (record: RaRecord) => ReactNode;
}) {
  // The row's values at once, then the record as the gateway reads it now, again while the dialog is open (Hiper's
  // code arriving on an order); a failed read keeps what is shown.
  const { data } = useGetOne(resource, { id: row.id }, { placeholderData: row, ...liveRecordQuery });
  const record = data ?? row;
  const translate = useTranslate();
  const titleId = useId();
  const lang = useScreenLang();
  const fields = fieldsOf(typeOfResource(resource));
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" lang={lang}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', gap: 1, m: 0, '& dd': { m: 0 } }}
        >
          {Object.entries(fields)
            .filter(([name, field]) => name !== 'id' && !field.hidden)
            .map(([name, field]) => {
              // A list the schema shows as a table or a timeline (an order's lines, its history).
              const Entries =
                field.items && field.display === 'table'
                  ? EntriesTable
                  : field.items && field.display === 'timeline'
                    ? Timeline
                    : undefined;
              return (
                <Fragment key={name}>
                  <Box component="dt" sx={{ color: 'text.secondary' }}>
                    {translate(`resources.${resource}.fields.${name}`, { _: name })}
                  </Box>
                  {/* What the screen draws itself (a run's errors) and a table or a timeline take the dialog's whole
                    width, under its label. */}
                  <Box
                    component="dd"
                    sx={{ overflowWrap: 'anywhere', gridColumn: details[name] || Entries ? '1 / -1' : undefined }}
                  >
                    {details[name] ? (
                      details[name](record)
                    ) : Entries ? (
                      <Entries
                        resource={resource}
                        source={name}
                        field={field}
                        value={record[name]}
                        lang={lang ?? 'pt-BR'}
                      />
                    ) : field.references && screenOfType(field.references) && record[name] != null ? (
                      // A reference names its record by its title, as a link to it; never its id.
                      <RecordContextProvider value={record}>
                        <ReferenceLink source={name} screen={screenOfType(field.references)!} />
                      </RecordContextProvider>
                    ) : (
                      defaultText(resource, name, field, record[name], translate, lang)
                    )}
                  </Box>
                </Fragment>
              );
            })}
        </Box>
        {after?.(record)}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        {/* The record's actions where they apply (an order's Reenviar), as in its row menu. */}
        {declarationOf(resource).actions?.length ? (
          <Box sx={{ mr: 'auto', display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <RecordContextProvider value={record}>
              <RecordActionButtons
                resource={resource}
                representation={(shown) => recordTitle(resource, shown)}
                onDone={onClose}
              />
            </RecordContextProvider>
          </Box>
        ) : null}
        <Button onClick={onClose}>{translate('app.list.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
