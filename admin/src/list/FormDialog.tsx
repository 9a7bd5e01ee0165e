import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';
import { Form, SaveButton, type RaRecord } from 'react-admin';

interface Props {
  open: boolean;
  title: string;
  record?: Partial<RaRecord>;
  onClose: () => void;
  /** Resolves when saved; may answer field errors to show under the fields. */
  onSubmit: (values: Record<string, unknown>) => Promise<void | Record<string, string>>;
  children: ReactNode;
  saveLabel?: string;
  cancelLabel?: string;
}

/** A modal add or edit form: fields validated on blur, Save enabled once a field has changed. */
export function FormDialog({
  open,
  title,
  record,
  onClose,
  onSubmit,
  children,
  saveLabel = 'Save',
  cancelLabel = 'Cancel',
}: Props) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="form-dialog-title"
      disableAutoFocus
      // Once the dialog is in, the first field takes the focus, so typing can start at once.
      slotProps={{ transition: { onEntered: (node: HTMLElement) => node.querySelector('input')?.focus() } }}
    >
      {open && (
        <Form record={record as RaRecord} onSubmit={onSubmit} mode="onBlur" reValidateMode="onBlur" criteriaMode="all">
          <DialogTitle id="form-dialog-title">{title}</DialogTitle>
          <DialogContent>
            <Box sx={{ display: 'flex', flexDirection: 'column', pt: 1 }}>{children}</Box>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{cancelLabel}</Button>
            <SaveButton label={saveLabel} icon={<></>} />
          </DialogActions>
        </Form>
      )}
    </Dialog>
  );
}
