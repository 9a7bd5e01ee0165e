import { Box, Skeleton, styled, Typography } from '@mui/material';
import { Fragment } from 'react';
import { RecordContextProvider, useListContext, useTranslate, type RaRecord } from 'react-admin';
import { declarationOf } from '../dataProvider/resourceTypes';
import { EmptyMessage, PLACEHOLDER_ROWS, RecordActions, type RowsProps } from './ListRows';
import { groupHeadingId, groupRows, useRowGroups } from './rowGroups';

const PhoneRow = styled('li')(({ theme }) => ({
  display: 'flex',
  alignItems: 'flex-start',
  gap: theme.spacing(1),
  padding: theme.spacing(1.5, 1, 1.5, 2),
  '& + &': { borderTop: `1px solid ${(theme.vars || theme).palette.divider}` },
}));

/** A group's heading on a phone, over its rows, which it indents. */
const PhoneGroup = styled('li')(({ theme }) => ({
  '& + &, li + &, & + li': { borderTop: `1px solid ${(theme.vars || theme).palette.divider}` },
  '& > .group-heading': {
    ...theme.typography.body2,
    fontWeight: 500,
    margin: 0,
    padding: theme.spacing(1, 1, 1, 2),
    backgroundColor: (theme.vars || theme).palette.action.hover,
  },
  '& > ul': {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    boxShadow: `inset 4px 0 0 ${(theme.vars || theme).palette.divider}`,
  },
  '& > ul > li': { paddingLeft: theme.spacing(3) },
}));

const Details = styled('dl')(({ theme }) => ({
  ...theme.typography.body2,
  display: 'grid',
  gridTemplateColumns: 'auto minmax(0, 1fr)',
  gap: theme.spacing(0.25, 1.5),
  margin: theme.spacing(0.5, 0, 0),
  '& dt': { color: (theme.vars || theme).palette.text.secondary },
  '& dd': { margin: 0, overflowWrap: 'anywhere' },
}));

/**
 * The rows on a phone, as react-admin's SimpleList shows them: each record named in full, its other fields under it
 * with their labels, and its menu beside it. Nothing is wider than the screen: a table there scrolls sideways, with
 * its row menus at the far end.
 */
export function PhoneRows(props: RowsProps) {
  const { resource, columns, representation, isLocked, onEdit } = props;
  const translate = useTranslate();
  const { data, isPending, isPlaceholderData } = useListContext();
  const groups = useRowGroups();
  // The fields that name a record (its declaration's title and subtitle) are each item's title, not its details.
  const { title: titleField, subtitle } = declarationOf(resource);
  const label = translate(`resources.${resource}.table`);
  if (isPending) {
    return (
      <Box aria-label={label} aria-busy sx={{ px: 2, py: 1 }}>
        {Array.from({ length: PLACEHOLDER_ROWS }, (_, row) => (
          <Skeleton key={row} data-testid="placeholder-row" height={64} />
        ))}
      </Box>
    );
  }
  if (!data?.length) {
    return (
      <Box sx={{ p: 2 }}>
        <EmptyMessage resource={resource} />
      </Box>
    );
  }
  const details = columns.filter((column) => column.source !== (titleField ?? 'id') && column.source !== subtitle);
  const row = (record: RaRecord) => (
    <RecordContextProvider key={record.id} value={record}>
      <PhoneRow
        onClick={isLocked(record) ? undefined : () => onEdit(record)}
        style={{ cursor: isLocked(record) ? undefined : 'pointer' }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{representation(record)}</Typography>
          <Details>
            {details.map((column) => (
              <Fragment key={column.source}>
                <dt>{translate(`resources.${resource}.fields.${column.source}`)}</dt>
                <dd>{column.detail(record)}</dd>
              </Fragment>
            ))}
          </Details>
        </Box>
        <RecordActions {...props} record={record} />
      </PhoneRow>
    </RecordContextProvider>
  );
  return (
    <Box
      component="ul"
      aria-label={label}
      aria-busy={isPlaceholderData}
      sx={{ listStyle: 'none', m: 0, p: 0, opacity: isPlaceholderData ? 0.5 : 1, transition: 'opacity 0.2s' }}
    >
      {groupRows(data, groups).map((group) =>
        group.heading ? (
          // A group's rows in a list of their own, named by its heading.
          <PhoneGroup key={group.key}>
            <p className="group-heading" id={groupHeadingId(group.key)}>
              {group.heading}
            </p>
            <ul aria-labelledby={groupHeadingId(group.key)}>{group.records.map(row)}</ul>
          </PhoneGroup>
        ) : (
          group.records.map(row)
        ),
      )}
    </Box>
  );
}
