import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Title, type RaRecord } from 'react-admin';
import { DataTable, type Column } from './DataTable';
import { DeleteDialog } from './DeleteDialog';
import { Pagination, type PaginationLabels } from './Pagination';
import { RowMenu } from './RowMenu';
import { usePagedList } from './usePagedList';

/** The page title (in the app bar and as the heading) of a list screen. */
export function ListHeading({ title }: { title: string }) {
  return (
    <>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
    </>
  );
}

/** The padding around a list screen. */
export function ListScreen({ children }: { children: ReactNode }) {
  return <Box sx={{ p: { xs: 1, sm: 3 } }}>{children}</Box>;
}

interface Props<T extends RaRecord> {
  /** The resource listed, as the data provider and the delete dialog name it. */
  resource: string;
  title: string;
  addLabel: string;
  /** The table's accessible name. */
  tableLabel: string;
  /** What the table shows when there is no row. */
  empty: string;
  paginationLabels: PaginationLabels;
  /** The columns before the last one, which holds each row's menu. */
  columns: Column<T>[];
  /** The row menu: its column's heading, its accessible name for a row, and its two entries' labels. */
  actions: {
    heading: string;
    label: (record: T) => string;
    edit: string;
    remove: string;
    disabled?: (record: T) => boolean;
  };
  /** The dialog adding a record (without `record`) or editing one. */
  dialog: (props: { open: boolean; record?: T; onClose: () => void }) => ReactNode;
  /** How the record is named in the delete dialog's messages. */
  deleteType: string;
  deleteTitle: string;
}

/** A list screen: heading, add button, one page of the resource with row actions, pagination and the dialogs. */
export function ListPage<T extends RaRecord>(props: Props<T>) {
  const list = usePagedList<T>(props.resource);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const { actions } = props;

  const columns: Column<T>[] = [
    ...props.columns,
    {
      label: actions.heading,
      render: (record) => (
        <RowMenu
          label={actions.label(record)}
          disabled={actions.disabled?.(record)}
          actions={[
            { label: actions.edit, onClick: () => setEditing(record) },
            { label: actions.remove, onClick: () => setDeleting(record), danger: true },
          ]}
        />
      ),
    },
  ];

  return (
    <ListScreen>
      <ListHeading title={props.title} />
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} sx={{ mb: 2 }}>
        {props.addLabel}
      </Button>
      {list.error ? (
        <Alert severity="error">{list.error.message}</Alert>
      ) : (
        <DataTable
          label={props.tableLabel}
          columns={columns}
          data={list.data}
          isPending={list.isPending}
          isStale={list.isStale}
          empty={props.empty}
        />
      )}
      <Pagination
        page={list.page}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onChange={list.setPage}
        labels={props.paginationLabels}
      />
      {props.dialog({ open: adding, onClose: () => setAdding(false) })}
      {props.dialog({ open: !!editing, record: editing ?? undefined, onClose: () => setEditing(null) })}
      <DeleteDialog
        resource={props.resource}
        record={deleting}
        type={props.deleteType}
        title={props.deleteTitle}
        onClose={() => setDeleting(null)}
      />
    </ListScreen>
  );
}
