import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, DialogContentText } from '@mui/material';
import { useState } from 'react';
import {
  Button,
  Confirm,
  useDelete,
  useDeleteMany,
  useListContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import type { RecordActionDeclaration } from '../dataProvider/resourceTypes';
import { useToast } from '../layout/useToast';
import { useScreenLang } from './ScreenLanguage';

/** The toasts of a delete, in the specification's words ('O item foi apagado com sucesso.'). */
function useDeleteToasts(resource: string) {
  const toast = useToast();
  const translate = useTranslate();
  const refresh = useRefresh();
  const type = (count: number) => translate(`resources.${resource}.type`, { smart_count: count });
  return {
    deleted: (count: number) => {
      toast(
        translate('app.delete.success_title'),
        translate('app.delete.success', { smart_count: count, type: type(count) }),
      );
      refresh();
    },
    failed: () => {
      toast(translate('app.delete.failure_title'), translate('app.delete.failure', { type: type(1) }), 'error');
      refresh();
    },
  };
}

/**
 * Each button's icon says what it does: react-admin's Confirm would put a warning on Cancel and a tick on Delete. Named
 * as MUI names them in development, in a production build too.
 */
const icons = {
  ConfirmIcon: () => <DeleteIcon data-testid="DeleteIcon" />,
  CancelIcon: () => <CloseIcon data-testid="CloseIcon" />,
};

/** The confirmation's text, then the records it deletes, by name. */
function DeleteContent({ names }: { names: string[] }) {
  const translate = useTranslate();
  return (
    <>
      <DialogContentText>{translate('app.delete.confirm')}</DialogContentText>
      <Box component="ul" aria-label="records" sx={{ mt: 1, mb: 0, pl: 3, overflowWrap: 'anywhere' }}>
        {names.map((name, index) => (
          <Box component="li" key={index} sx={{ fontWeight: 600 }}>
            {name}
          </Box>
        ))}
      </Box>
    </>
  );
}

interface DeleteRecordProps {
  resource: string;
  record: RaRecord | null;
  title: string;
  representation: (record: RaRecord) => string;
  onClose: () => void;
}

/** Confirms and deletes one record, naming it. */
export function DeleteRecordConfirm({ resource, record, title, representation, onClose }: DeleteRecordProps) {
  const [remove, { isPending }] = useDelete();
  const toasts = useDeleteToasts(resource);
  const lang = useScreenLang();
  return (
    <Confirm
      lang={lang}
      isOpen={!!record}
      loading={isPending}
      title={title}
      content={record ? <DeleteContent names={[representation(record)]} /> : null}
      confirm="ra.action.delete"
      confirmColor="warning"
      {...icons}
      onClose={onClose}
      onConfirm={() => {
        if (!record) return;
        remove(
          resource,
          { id: record.id, previousData: record },
          {
            mutationMode: 'pessimistic',
            onSuccess: () => toasts.deleted(1),
            onError: () => toasts.failed(),
            onSettled: onClose,
          },
        );
      }}
    />
  );
}

/** The bulk action: confirms and deletes the selected records, naming those on the page. */
export function SpecBulkDeleteButton({
  resource,
  title,
  representation,
}: {
  resource: string;
  title: string;
  representation: (record: RaRecord) => string;
}) {
  const { selectedIds, data, onUnselectItems } = useListContext();
  const [open, setOpen] = useState(false);
  const [removeMany, { isPending }] = useDeleteMany();
  const toasts = useDeleteToasts(resource);
  const lang = useScreenLang();
  const names = (data ?? []).filter((record) => selectedIds.includes(record.id)).map(representation);
  return (
    <>
      <Button label="ra.action.delete" color="error" onClick={() => setOpen(true)}>
        <DeleteIcon />
      </Button>
      <Confirm
        lang={lang}
        isOpen={open}
        loading={isPending}
        title={title}
        content={<DeleteContent names={names} />}
        confirm="ra.action.delete"
        confirmColor="warning"
        {...icons}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          removeMany(
            resource,
            { ids: selectedIds },
            {
              mutationMode: 'pessimistic',
              onSuccess: () => {
                toasts.deleted(selectedIds.length);
                onUnselectItems();
              },
              onError: () => toasts.failed(),
              onSettled: () => setOpen(false),
            },
          )
        }
      />
    </>
  );
}

interface ActionConfirmProps {
  resource: string;
  /** The declared action to confirm (`confirm: true`). */
  action: RecordActionDeclaration;
  name: string;
  /** Runs the action (crud/actionPrompts.tsx), which tells how it went as any other. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

/**
 * Asks before a record action that cannot be undone (an archived client's purge), in the screen's words:
 * `actions.<name>.confirm.title` and `.description` (`%{name}`, the record as its screen names it), confirmed by the
 * action's own label.
 */
export function ActionConfirm({ resource, action, name, onConfirm, onClose }: ActionConfirmProps) {
  const translate = useTranslate();
  const lang = useScreenLang();
  const [running, setRunning] = useState(false);
  const key = `resources.${resource}.actions.${action.name}`;
  return (
    <Confirm
      lang={lang}
      isOpen
      loading={running}
      title={translate(`${key}.confirm.title`, { name })}
      content={<DialogContentText>{translate(`${key}.confirm.description`, { name })}</DialogContentText>}
      confirm={translate(`${key}.label`)}
      confirmColor="warning"
      {...icons}
      onClose={onClose}
      onConfirm={() => {
        setRunning(true);
        void onConfirm().finally(() => {
          setRunning(false);
          onClose();
        });
      }}
    />
  );
}
