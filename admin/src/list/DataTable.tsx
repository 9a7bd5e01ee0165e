import { Box, Paper, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import type { ReactNode } from 'react';

export interface Column<T> {
  label: string;
  render: (record: T) => ReactNode;
  /** Text cells are cut at 150px with an ellipsis; the full text is in the tooltip. */
  truncate?: boolean;
  align?: 'left' | 'right' | 'center';
}

export const PLACEHOLDER_ROWS = 4;

/** A cell's text cut at a width, with the full text on hover. */
export function Truncated({ text, width = 150 }: { text: string; width?: number }) {
  return (
    <Box
      component="span"
      title={text}
      sx={{ display: 'block', maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
    >
      {text}
    </Box>
  );
}

interface Props<T extends { id: string | number }> {
  columns: Column<T>[];
  data: T[] | undefined;
  isPending: boolean;
  isStale: boolean;
  label: string;
  empty: string;
}

/** The table of a list screen: 4 placeholder rows while loading, stale rows dimmed. */
export function DataTable<T extends { id: string | number }>({
  columns,
  data,
  isPending,
  isStale,
  label,
  empty,
}: Props<T>) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={label} aria-busy={isPending || isStale}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.label} align={column.align} sx={{ fontWeight: 600 }}>
                {column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {isPending &&
            Array.from({ length: PLACEHOLDER_ROWS }, (_, row) => (
              <TableRow key={`placeholder-${row}`} data-testid="placeholder-row">
                {columns.map((column) => (
                  <TableCell key={column.label}>
                    <Skeleton variant="text" width="80%" />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          {!isPending &&
            data?.map((record) => (
              <TableRow key={record.id} sx={{ opacity: isStale ? 0.5 : 1, transition: 'opacity 0.2s' }}>
                {columns.map((column) => (
                  <TableCell key={column.label} align={column.align}>
                    {column.render(record)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          {!isPending && !data?.length && (
            <TableRow>
              <TableCell colSpan={columns.length}>{empty}</TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
