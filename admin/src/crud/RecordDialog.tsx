import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { Fragment, useId, useMemo, useState, type ReactNode } from 'react';
import {
  CreateBase,
  EditBase,
  RecordContextProvider,
  SaveButton,
  SimpleForm,
  useGetOne,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { isNetworkFailure } from '../api';
import {
  declarationOf,
  isOffered,
  recordTitle,
  screenOfType,
  typeOfResource,
  type RecordActionDeclaration,
} from '../dataProvider/resourceTypes';
import { ActionConfirm } from './DeleteConfirm';
import { ReferenceLink } from './ListExtras';
import { fieldsOf } from './description';
import { defaultText, stateNotes } from './values';
import { useFailureToast, useToast } from '../layout/useToast';
import { DerivedInput } from './DerivedInput';
import { createData, createDefaults, formInputs, updateData, type FormMode, type InputDescription } from './formInputs';
import { useScreenLang } from './ScreenLanguage';
import { runRecordAction } from './recordAction';
import { usePromptedAction } from './actionPrompts';
import { EntriesTable, Timeline } from './FieldDisplay';
import { liveRecordQuery } from './live';

/** An input a screen adds to the schema's (a password's confirmation), placed after one of them. */
export interface AdditionalInput {
  after: string;
  render: (mode: FormMode) => ReactNode;
}

export interface FormCustomization {
  /** The inputs' order, when the screen fixes one; inputs it leaves out follow in the derived order. */
  order?: string[];
  /** A create form's starting values over the schema's defaults. */
  createDefaults?: Record<string, unknown>;
  additionalInputs?: AdditionalInput[];
}

function ordered(inputs: InputDescription[], order: string[] = []) {
  const rank = (source: string) => (order.includes(source) ? order.indexOf(source) : order.length);
  return [...inputs].sort((a, b) => rank(a.source) - rank(b.source));
}

/** The form's inputs, consecutive switches side by side. */
function FormInputs({
  resource,
  mode,
  inputs,
  additional = [],
}: {
  resource: string;
  mode: FormMode;
  inputs: InputDescription[];
  additional?: AdditionalInput[];
}) {
  const groups: ReactNode[] = [];
  let switches: ReactNode[] = [];
  const flush = () => {
    if (!switches.length) return;
    groups.push(
      <Box key={`switches-${groups.length}`} sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
        {switches}
      </Box>,
    );
    switches = [];
  };
  inputs.forEach((input) => {
    const element = <DerivedInput key={input.source} resource={resource} input={input} mode={mode} />;
    if (input.kind === 'boolean') switches.push(element);
    else {
      flush();
      groups.push(element);
    }
    for (const extra of additional.filter((a) => a.after === input.source)) {
      flush();
      groups.push(<Fragment key={`after-${input.source}`}>{extra.render(mode)}</Fragment>);
    }
  });
  flush();
  return <>{groups}</>;
}

/**
 * The record's declared actions (a client's sync now), at the start of the edit dialog's buttons: each runs at once,
 * tells how it went in a toast, and the list behind reads its rows again; the dialog stays open.
 */
function RecordActionButtons({
  resource,
  representation,
  onDone,
}: {
  resource: string;
  representation: (r: RaRecord) => string;
  /** After the action has run (a read-only record's dialog closes: what it shows has changed). */
  onDone?: () => void;
}) {
  const translate = useTranslate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const record = useRecordContext();
  const [running, setRunning] = useState(false);
  const { start, dialog } = usePromptedAction();
  const [confirming, setConfirming] = useState<RecordActionDeclaration | null>(null);
  if (!record) return null;
  const buttons = (declarationOf(resource).actions ?? [])
    .filter((action) => isOffered(action, record))
    .map((action) => (
      <Button
        key={action.name}
        disabled={running}
        color={action.confirm ? 'error' : undefined}
        onClick={() => {
          if (action.confirm) return setConfirming(action);
          start(action.name, record, async (variables, prompted) => {
            setRunning(true);
            const outcome = await runRecordAction({
              resource,
              action,
              record,
              name: representation(record),
              translate,
              toast,
              variables,
            }).finally(() => setRunning(false));
            // The list's rows (a client's sync state), not the form's record: what is being typed stays.
            void queryClient.invalidateQueries({ queryKey: [resource, 'getList'] });
            // A prompt refused (a mistyped id) stays open over the dialog, to be corrected.
            if (outcome.done || !prompted) onDone?.();
            return outcome;
          });
        }}
      >
        {translate(`resources.${resource}.actions.${action.name}.label`)}
      </Button>
    ));
  return (
    <>
      {buttons}
      {dialog}
      <ActionConfirm
        resource={resource}
        action={confirming}
        record={record}
        name={representation(record)}
        onClose={() => setConfirming(null)}
        onDone={onDone}
      />
    </>
  );
}

function DialogToolbar({ onCancel, start }: { onCancel: () => void; start?: ReactNode }) {
  const translate = useTranslate();
  return (
    <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', rowGap: 1 }}>
      {start && <Box sx={{ mr: 'auto', display: 'flex', gap: 1 }}>{start}</Box>}
      <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
      <SaveButton icon={<></>} />
    </DialogActions>
  );
}

interface DialogProps {
  resource: string;
  title: string;
  onClose: () => void;
  children: ReactNode;
}

function focusFirstField(node: HTMLElement) {
  const active = document.activeElement;
  if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) {
    if (node.contains(active)) return;
  }
  node.querySelector<HTMLInputElement>('input')?.focus();
}

/** A modal form dialog that fits a phone: its content scrolls, Save and Cancel stay in view. */
function FormDialogFrame({ title, onClose, children }: Omit<DialogProps, 'resource'>) {
  const titleId = useId();
  return (
    <Dialog
      open
      lang={useScreenLang()}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      disableAutoFocus
      // Once the dialog is in, the first field takes the focus, so typing can start at once; unless a field already
      // has it (someone quick, or a slow machine's late transition), which must not lose what is being typed.
      slotProps={{
        transition: { onEntered: focusFirstField },
        paper: {
          sx: {
            mx: { xs: 1, sm: 4 },
            width: { xs: 'calc(100% - 16px)', sm: undefined },
            // The form fills the dialog, its fields scrolling between the title and the buttons.
            '& > form': { display: 'flex', flexDirection: 'column', minHeight: 0, flex: '1 1 auto' },
          },
        },
      }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {children}
    </Dialog>
  );
}

function useSaved(resource: string, onClose: () => void, message: string) {
  const toast = useToast();
  const failed = useFailureToast();
  const translate = useTranslate();
  const refresh = useRefresh();
  return {
    onSuccess: () => {
      toast(translate('app.notification.success'), translate(message));
      onClose();
      refresh();
    },
    // A refusal that names its fields is shown on them (react-admin marks them from `body.errors`), not in a toast.
    onError: (error: unknown) => {
      if (!(error as { body?: { errors?: object } } | undefined)?.body?.errors) failed(error);
    },
  };
}

const formProps = { mode: 'onBlur', reValidateMode: 'onBlur', criteriaMode: 'all' } as const;

/** Adds a record of the resource: the create mutation's arguments as inputs, validated as the schema bounds them. */
export function CreateDialog({
  resource,
  title,
  onClose,
  form = {},
}: Omit<DialogProps, 'children'> & { form?: FormCustomization }) {
  const inputs = useMemo(() => ordered(formInputs(resource, 'create'), form.order), [resource, form.order]);
  const defaults = useMemo(() => createDefaults(inputs, form.createDefaults), [inputs, form.createDefaults]);
  const mutationOptions = useSaved(resource, onClose, `resources.${resource}.notifications.created`);
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

/** Edits a record: the update mutation's arguments as inputs; only what changed is sent. */
export function EditDialog({
  resource,
  title,
  record,
  onClose,
  form = {},
  representation = (shown: RaRecord) => recordTitle(resource, shown),
}: Omit<DialogProps, 'children'> & {
  record: RaRecord;
  form?: FormCustomization;
  /** How the record is named in its actions' toasts. */
  representation?: (record: RaRecord) => string;
}) {
  const inputs = useMemo(() => ordered(formInputs(resource, 'edit'), form.order), [resource, form.order]);
  const mutationOptions = useSaved(resource, onClose, `resources.${resource}.notifications.updated`);
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
}: {
  resource: string;
  title: string;
  record: RaRecord;
  onClose: () => void;
  /** Fields the screen draws itself, by name. */
  details?: Record<string, (record: RaRecord) => ReactNode>;
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
