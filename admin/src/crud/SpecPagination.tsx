import { Box, Button, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';

/**
 * The pagination the specification words: the range and total ('1–5 of 14'), then Previous, 'Page N' and Next
 * in the screen's wording (`resources.<name>.navigation`).
 */
export function SpecPagination({ resource }: { resource: string }) {
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
