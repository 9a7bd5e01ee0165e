import { Box, Button as MuiButton, Typography } from '@mui/material';
import { useListContext, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { declarationOf, isOffered, listsReferencing, offers, type ResourceName } from '../dataProvider/resourceTypes';
import { useLabelsOf } from '../layout/afterRows';
import { useRecordAction } from './actionPrompts';
import type { Column } from './columns';
import { RowActions } from './RowActions';

// What the table and the phone's list share: their placeholder rows, what an empty list says, a row's menu.

/** Placeholder rows drawn while the first page loads. */
export const PLACEHOLDER_ROWS = 4;

/**
 * What an empty list says: that nothing matches the search, with a button back to every row; or, with no search,
 * that there is nothing yet.
 */
export function EmptyMessage({ resource }: { resource: string }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const { q, ...others } = filterValues as Record<string, unknown>;
  if (typeof q !== 'string' || !q) return <Typography>{translate(`resources.${resource}.empty`)}</Typography>;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, rowGap: 1 }}>
      <Typography sx={{ overflowWrap: 'anywhere' }}>{translate('app.list.no_results', { q })}</Typography>
      <MuiButton variant="outlined" size="small" onClick={() => setFilters(others)}>
        {translate('app.list.clear_search')}
      </MuiButton>
    </Box>
  );
}

export interface RowsProps {
  resource: ResourceName;
  columns: Column[];
  representation: (record: RaRecord) => string;
  isLocked: (record: RaRecord) => boolean;
  onEdit: (record: RaRecord) => void;
  onDelete: (record: RaRecord) => void;
}

/** A row's menu, named after the record: edit and delete where the resource offers them, else a look at it. */
export function RecordActions({
  resource,
  record,
  representation,
  isLocked,
  onEdit,
  onDelete,
}: Omit<RowsProps, 'columns'> & { record: RaRecord }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const { start, dialog } = useRecordAction(resource, representation);
  const others = listsReferencing(resource);
  const othersNamed = useLabelsOf(others.map(({ screen }) => screen));
  const actions = [
    ...(offers(resource, 'update')
      ? [{ label: translate(`resources.${resource}.action.edit`), onClick: () => onEdit(record) }]
      : [{ label: translate(`resources.${resource}.action.show`), onClick: () => onEdit(record) }]),
    // What the declaration adds (a client's sync now): its code comes when one is chosen; the row then reads again.
    ...(declarationOf(resource).actions ?? [])
      .filter((action) => isOffered(action, record))
      .map((action) => ({
        label: translate(`resources.${resource}.actions.${action.name}.label`),
        danger: action.confirm,
        onClick: () => start(action, record, () => refresh()),
      })),
    ...(offers(resource, 'delete')
      ? [{ label: translate(`resources.${resource}.action.delete`), onClick: () => onDelete(record), danger: true }]
      : []),
    // The record's rows in another list (a client's webhooks), filtered to it.
    ...(othersNamed ? others : []).map(({ screen, source }) => ({
      label: translate(`resources.${screen}.menu`),
      onClick: () => navigate(`/${screen}?filter=${encodeURIComponent(JSON.stringify({ [source]: record.id }))}`),
    })),
  ];
  return (
    <>
      <RowActions
        label={translate('app.list.actions_for', { name: representation(record) })}
        disabled={isLocked(record)}
        actions={actions}
      />
      {dialog}
    </>
  );
}
