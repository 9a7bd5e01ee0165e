/** What the create, edit and show dialogs share: the form's inputs, the record's actions, the toolbar, the frame and what a save does. */
import { useQueryClient } from '@tanstack/react-query';
import { Box, Button, Dialog, DialogActions, DialogTitle } from '@mui/material';
import { Fragment, useId, type ReactNode } from 'react';
import { SaveButton, useRecordContext, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { declarationOf, isOffered } from '../dataProvider/resourceTypes';
import { useFailureToast, useToast } from '../layout/useToast';
import { DerivedInput } from './DerivedInput';
import { type FormMode, type InputDescription } from './formInputs';
import { useScreenLang } from './ScreenLanguage';
import { useRecordAction } from './actionPrompts';

/** An input a screen adds to the schema's (a password's confirmation), placed after one of them. */
export interface AdditionalInput {
  after: string;
  render: (mode: FormMode) => ReactNode;
}

export interface FormCustomization {
  /** The inputs' order, when the screen fixes one; inputs it leaves out follow in the derived order. */
  order?: string[];
  /** Inputs the screen does not offer (set elsewhere: a user's alerts, in their own Configurações). */
  omit?: string[];
  /** A create form's starting values over the schema's defaults. */
  createDefaults?: Record<string, unknown>;
  additionalInputs?: AdditionalInput[];
}

export function ordered(inputs: InputDescription[], order: string[] = [], omit: string[] = []) {
  const rank = (source: string) => (order.includes(source) ? order.indexOf(source) : order.length);
  return inputs.filter((input) => !omit.includes(input.source)).sort((a, b) => rank(a.source) - rank(b.source));
}

/** The form's inputs, consecutive switches side by side. */
export function FormInputs({
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
export function RecordActionButtons({
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
  const queryClient = useQueryClient();
  const record = useRecordContext();
  const { start, dialog, running } = useRecordAction(resource, representation);
  if (!record) return null;
  const buttons = (declarationOf(resource).actions ?? [])
    .filter((action) => isOffered(action, record))
    .map((action) => (
      <Button
        key={action.name}
        disabled={running}
        color={action.confirm ? 'error' : undefined}
        onClick={() =>
          start(action, record, (outcome, prompted) => {
            // The list's rows (a client's sync state), not the form's record: what is being typed stays.
            void queryClient.invalidateQueries({ queryKey: [resource, 'getList'] });
            // A prompt refused (a mistyped id) stays open over the dialog, to be corrected.
            if (outcome.done || !prompted) onDone?.();
          })
        }
      >
        {translate(`resources.${resource}.actions.${action.name}.label`)}
      </Button>
    ));
  return (
    <>
      {buttons}
      {dialog}
    </>
  );
}

export function DialogToolbar({ onCancel, start }: { onCancel: () => void; start?: ReactNode }) {
  const translate = useTranslate();
  return (
    <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', rowGap: 1 }}>
      {start && <Box sx={{ mr: 'auto', display: 'flex', gap: 1 }}>{start}</Box>}
      <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
      <SaveButton icon={<></>} />
    </DialogActions>
  );
}

export interface DialogProps {
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
export function FormDialogFrame({ title, onClose, children }: Omit<DialogProps, 'resource'>) {
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

export function useSaved(onClose: () => void, message: string) {
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

export const formProps = { mode: 'onBlur', reValidateMode: 'onBlur', criteriaMode: 'all' } as const;
