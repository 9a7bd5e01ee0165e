import { Box, Button, Typography } from '@mui/material';

export interface PaginationLabels {
  previous: string;
  page: (page: number) => string;
  next: string;
}

export const englishPagination: PaginationLabels = { previous: 'Previous', page: (n) => `Page ${n}`, next: 'Next' };
export const portuguesePagination: PaginationLabels = {
  previous: 'Anterior',
  page: (n) => `Página ${n}`,
  next: 'Próximo',
};

interface Props {
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onChange: (page: number) => void;
  labels: PaginationLabels;
}

/** Previous, the page number and Next, under a list. */
export function Pagination({ page, hasPrevious, hasNext, onChange, labels }: Props) {
  return (
    <Box
      component="nav"
      aria-label="pagination"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 2, mt: 2 }}
    >
      <Button variant="outlined" size="small" disabled={!hasPrevious} onClick={() => onChange(page - 1)}>
        {labels.previous}
      </Button>
      <Typography component="span" aria-current="page">
        {labels.page(page)}
      </Typography>
      <Button variant="outlined" size="small" disabled={!hasNext} onClick={() => onChange(page + 1)}>
        {labels.next}
      </Button>
    </Box>
  );
}
