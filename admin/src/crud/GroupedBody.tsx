import { TableBody, TableCell, TableRow } from '@mui/material';
import { Children, type ReactNode } from 'react';
import {
  DataTableRow,
  RecordContextProvider,
  useDataTableConfigContext,
  useDataTableDataContext,
  useDataTableRowSxContext,
} from 'react-admin';
import { groupHeadingId, groupRows, useRowGroups } from './rowGroups';

/**
 * A table's body whose rows come in the screen's groups (rowGroups.ts): each group its own `<tbody>`, headed by a row
 * whose one cell spans the table and names the group, so that a screen reader reads the rows as the group's.
 */
export function GroupedBody({ children }: { children?: ReactNode }) {
  const data = useDataTableDataContext();
  const groups = useRowGroups();
  const rowSx = useDataTableRowSxContext();
  const { hasBulkActions } = useDataTableConfigContext();
  const span = Children.toArray(children).filter(Boolean).length + (hasBulkActions ? 1 : 0);
  return groupRows(data ?? [], groups).map((group) => (
    <TableBody
      key={group.key}
      className="datatable-body"
      aria-labelledby={group.heading ? groupHeadingId(group.key) : undefined}
      // A group's rows marked down their left edge, under their heading.
      sx={{
        '& .row-in-group > td:first-of-type': {
          boxShadow: (theme) => `inset 4px 0 0 ${(theme.vars || theme).palette.divider}`,
        },
      }}
    >
      {group.heading && (
        <TableRow className="row-group-heading">
          <TableCell
            id={groupHeadingId(group.key)}
            component="th"
            scope="rowgroup"
            colSpan={span}
            sx={{ fontWeight: 500, bgcolor: 'action.hover' }}
          >
            {group.heading}
          </TableCell>
        </TableRow>
      )}
      {group.records.map((record, index) => (
        <RecordContextProvider value={record} key={record.id ?? index}>
          <DataTableRow className={group.heading ? 'row-in-group' : undefined} sx={rowSx?.(record, index)}>
            {children}
          </DataTableRow>
        </RecordContextProvider>
      ))}
    </TableBody>
  ));
}
