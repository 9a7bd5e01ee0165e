import { Box, Button, styled, Typography } from '@mui/material';
import { useId } from 'react';
import { useListContext, useTranslate } from 'react-admin';

// A native select: MUI's own would bring its menu's code into every list's first screen.
const SizeSelect = styled('select')(({ theme }) => ({
  ...theme.typography.body2,
  color: 'inherit',
  background: 'transparent',
  border: `1px solid ${(theme.vars || theme).palette.divider}`,
  borderRadius: (theme.vars || theme).shape.borderRadius,
  padding: theme.spacing(0.5, 1),
  '& option': {
    color: (theme.vars || theme).palette.text.primary,
    background: (theme.vars || theme).palette.background.paper,
  },
}));

/** How many rows a page shows, where the list offers a choice. */
function PageSize({ sizes }: { sizes: readonly number[] }) {
  const { perPage, setPerPage } = useListContext();
  const translate = useTranslate();
  const id = useId();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Typography component="label" htmlFor={id} variant="body2" color="text.secondary">
        {translate('app.list.rows_per_page')}
      </Typography>
      <SizeSelect id={id} value={perPage} onChange={(event) => setPerPage(Number(event.target.value))}>
        {sizes.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </SizeSelect>
    </Box>
  );
}

/**
 * The pagination the specification words: the range and total ('1–5 of 14'), then Previous, 'Page N' and Next
 * in the screen's wording (`resources.<name>.navigation`); on a list that offers several page sizes, a choice of them.
 */
export function SpecPagination({ resource, sizes = [] }: { resource: string; sizes?: readonly number[] }) {
  const { page, perPage, total, setPage, isPending, isPlaceholderData, data } = useListContext();
  const translate = useTranslate();
  const count = total ?? 0;
  const label = (key: string, options = {}) => translate(`resources.${resource}.navigation.${key}`, options);
  // While another page loads, the buttons wait for it: a second click would skip a page.
  const settled = !isPending && !isPlaceholderData;
  const hasPrevious = settled && page > 1;
  const hasNext = settled && page * perPage < count;
  const shown = data?.length ?? 0;
  return (
    <Box
      component="nav"
      aria-label="pagination"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 2, mt: 2 }}
    >
      {count > 0 && shown > 0 && (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
          {translate('ra.navigation.page_range_info', {
            offsetBegin: (page - 1) * perPage + 1,
            offsetEnd: Math.min(page * perPage, count),
            total: count,
          })}
        </Typography>
      )}
      {sizes.length > 1 && <PageSize sizes={sizes} />}
      <Button variant="outlined" size="small" disabled={!hasPrevious} onClick={() => setPage(page - 1)}>
        {label('previous')}
      </Button>
      <Typography component="span" aria-current="page">
        {label('page', { page })}
      </Typography>
      <Button variant="outlined" size="small" disabled={!hasNext} onClick={() => setPage(page + 1)}>
        {label('next')}
      </Button>
    </Box>
  );
}
