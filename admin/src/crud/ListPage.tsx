import AddIcon from '@mui/icons-material/Add';
import { Box, Button as MuiButton, Card, styled } from '@mui/material';
import { Suspense, type ReactNode } from 'react';
import { ExportButton, TopToolbar, useTranslate } from 'react-admin';
import { screenOfType, typeOfResource, type ResourceName } from '../dataProvider/resourceTypes';
import { AfterFirstPaint } from '../layout/firstPaint';
import { StateFilters } from './deferred';
import { fieldsOf } from './description';

export function ListActions({ resource, label, onAdd }: { resource: ResourceName; label: string; onAdd?: () => void }) {
  const translate = useTranslate();
  // The add button keeps its words on a phone too (react-admin's own buttons shrink to an icon there); the filters
  // give up their width first, so that the export stays on the row beside them.
  return (
    <TopToolbar
      sx={{
        // On a phone the filters shrink and share one row with the buttons; on a narrow window beside the sidebar the
        // tools join the search box's row and wrap with it (filters, then the buttons together at the right), rather
        // than push the page sideways or leave a button alone on a row; on a desktop they keep one row.
        display: { xs: 'flex', sm: 'contents', lg: 'flex' },
        flexWrap: { xs: 'nowrap', lg: 'nowrap' },
        // A phone's whole width, which its filters share.
        width: { xs: '100%', sm: 'auto' },
        boxSizing: 'border-box',
        alignItems: 'center',
        gap: 1,
        minHeight: 0,
        py: { xs: 1 },
        // Each control keeps its words whole: the toolbar wraps rather than squeezing one over another.
        '& > :not(.list-filters)': { flexShrink: 0, whiteSpace: 'nowrap' },
      }}
    >
      {hasStateFilters(resource) && (
        // As tall from the first paint as once the filters are drawn, so that the rows below never move.
        <Box
          className="list-filters"
          sx={{
            // Two filters too wide for a narrow window's row go one under the other.
            height: { xs: 48, sm: 'auto', lg: 48 },
            minHeight: 48,
            display: 'flex',
            flexWrap: { xs: 'nowrap', sm: 'wrap', lg: 'nowrap' },
            alignItems: 'center',
            gap: 1,
            flex: { xs: '1 1 auto', sm: '0 1 auto' },
            minWidth: 0,
          }}
        >
          <AfterFirstPaint>
            <Suspense fallback={null}>
              <StateFilters resource={resource} />
            </Suspense>
          </AfterFirstPaint>
        </Box>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, ml: 'auto', minHeight: 48 }}>
        {onAdd && (
          <MuiButton variant="contained" size="small" startIcon={<AddIcon />} onClick={onAdd}>
            {label}
          </MuiButton>
        )}
        {/* Named on a phone, where it is an icon, even while there is nothing to export and it is disabled. */}
        <ExportButton maxResults={1000} aria-label={translate('ra.action.export')} />
      </Box>
    </TopToolbar>
  );
}

/** Whether the resource's lists have a state or a reference to filter by (drawn after the first paint, ListExtras.tsx). */
const hasStateFilters = (resource: ResourceName) =>
  Object.values(fieldsOf(typeOfResource(resource))).some(
    (field) => field.filterable && (field.values || (field.references && screenOfType(field.references))),
  );

/** The page around a list, as react-admin's List lays it out (its ListView and ListToolbar). */
const Frame = styled('div')(({ theme }) => ({
  display: 'flex',
  '& .RaList-main': { flex: '1 1 auto', display: 'flex', flexDirection: 'column', minWidth: 0 },
  '& .RaList-content': {
    position: 'relative',
    overflow: 'inherit',
    [theme.breakpoints.down('sm')]: { boxShadow: 'none' },
  },
}));

const Toolbar = styled('div')(({ theme }) => ({
  display: 'flex',
  position: 'relative',
  justifyContent: 'space-between',
  alignItems: 'flex-end',
  width: '100%',
  // Beside the sidebar on a narrow window, the search box and the tools (ListActions) share rows, wrapping.
  [theme.breakpoints.between('sm', 'lg')]: {
    flexWrap: 'wrap',
    justifyContent: 'flex-start',
    columnGap: theme.spacing(1),
    '& > .list-spacer': { display: 'none' },
  },
  [theme.breakpoints.down('sm')]: {
    backgroundColor: (theme.vars || theme).palette.background.paper,
    flexWrap: 'inherit',
    flexDirection: 'column-reverse',
  },
}));

/**
 * react-admin's List page drawn on its ListBase: the search box and the actions above the table's card, the pagination
 * below. react-admin's List would also bring into the first screen's code what this app does not show (its filter
 * form, its pagination with a rows-per-page select, its empty page): about a tenth of that code.
 */
export function ListPage({
  search,
  actions,
  filters,
  pagination,
  children,
}: Record<'search' | 'actions' | 'filters' | 'pagination' | 'children', ReactNode>) {
  return (
    <Frame className="list-page">
      <div className="RaList-main">
        <Toolbar className="RaList-actions">
          {search}
          <span className="list-spacer" />
          {actions}
        </Toolbar>
        {filters}
        <Card className="RaList-content">{children}</Card>
        {pagination}
      </div>
    </Frame>
  );
}
