import { Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, type Theme } from '@mui/material';
import { Suspense, type ReactNode } from 'react';
import { DataTable, useListContext, useTranslate, type RaRecord } from 'react-admin';
import { offers } from '../dataProvider/resourceTypes';
import { AfterFirstPaint } from '../layout/firstPaint';
import { SpecBulkDeleteButton } from './deferred';
import { GroupedBody } from './GroupedBody';
import { EmptyMessage, PLACEHOLDER_ROWS, RecordActions, type RowsProps } from './ListRows';
import { useRowGroups } from './rowGroups';

/** A table's headings over a body of the screen's own: placeholder rows, or what an empty list says. */
function HeadedTable({
  label,
  headings,
  busy,
  children,
}: {
  label: string;
  headings: string[];
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <TableContainer>
      <Table size="small" aria-label={label} aria-busy={busy}>
        <TableHead>
          <TableRow>
            {headings.map((heading, index) => (
              <TableCell key={index}>{heading}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}

/** 4 placeholder rows under the headings while the first page loads. */
function PlaceholderRows({ columns }: { columns: number }) {
  return Array.from({ length: PLACEHOLDER_ROWS }, (_, row) => (
    <TableRow key={row} data-testid="placeholder-row">
      {Array.from({ length: columns }, (_, index) => (
        <TableCell key={index}>
          <Skeleton variant="text" width="80%" />
        </TableCell>
      ))}
    </TableRow>
  ));
}

/** The rows as a table: react-admin's DataTable, with the specification's loading rows and its stale page dimmed. */
export function ResourceTable(props: RowsProps) {
  const { resource, columns, representation, isLocked, onEdit } = props;
  const translate = useTranslate();
  const { isPending, isPlaceholderData } = useListContext();
  // A screen that gathers rows under headings (an order's shipments) has its own body.
  const grouped = !!useRowGroups();
  const label = translate(`resources.${resource}.table`);
  const headings = [
    ...columns.map((c) => translate(`resources.${resource}.fields.${c.source}`)),
    translate('app.list.actions'),
  ];
  if (isPending) {
    return (
      <HeadedTable label={label} headings={headings} busy>
        <PlaceholderRows columns={headings.length} />
      </HeadedTable>
    );
  }
  return (
    <DataTable
      aria-label={label}
      aria-busy={isPlaceholderData}
      rowClick={(_id, _resource, record) => {
        if (!isLocked(record)) onEdit(record);
        return false;
      }}
      isRowSelectable={(record) => !isLocked(record)}
      rowSx={() => ({ opacity: isPlaceholderData ? 0.5 : 1, transition: 'opacity 0.2s' })}
      {...(grouped ? { body: GroupedBody } : {})}
      bulkActionButtons={
        // Drawn hidden until a row is selected; no selection where nothing can be deleted.
        offers(resource, 'delete') ? (
          <AfterFirstPaint>
            <Suspense fallback={null}>
              <SpecBulkDeleteButton
                resource={resource}
                title={translate(`resources.${resource}.action.delete`)}
                representation={representation}
              />
            </Suspense>
          </AfterFirstPaint>
        ) : (
          false
        )
      }
      // An empty page keeps the table's headings, with what it has to say in its body.
      empty={
        <HeadedTable label={label} headings={headings}>
          <TableRow>
            <TableCell colSpan={headings.length}>
              <EmptyMessage resource={resource} />
            </TableCell>
          </TableRow>
        </HeadedTable>
      }
      sx={{
        '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
        // Half MUI's side padding between columns: a resource of many columns (clients) fits a desktop's width whole,
        // none of its headings under the sticky actions column.
        '& .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox)': { px: 1 },
        // Where the columns are wider than the screen, the row menu stays in sight at the right edge while the rest
        // scrolls under it.
        '& .actions-column': {
          position: 'sticky',
          right: 0,
          zIndex: 1,
          bgcolor: 'background.paper',
          boxShadow: (theme: Theme) => `inset 1px 0 0 ${(theme.vars || theme).palette.divider}`,
        },
        // Above the other headings, which stay at the top as the rows scroll.
        '& .RaDataTable-headerCell.actions-column': { zIndex: 3 },
      }}
    >
      {columns.map((column) => (
        <DataTable.Col
          key={column.source}
          source={column.source}
          label={`resources.${resource}.fields.${column.source}`}
          disableSort={!column.field?.sortable}
          render={column.render}
        />
      ))}
      <DataTable.Col
        label={headings[headings.length - 1]}
        headerClassName="actions-column"
        cellClassName="actions-column"
        render={(record: RaRecord) => <RecordActions {...props} record={record} />}
      />
    </DataTable>
  );
}
