import { Box, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material';
import { Fragment } from 'react';
import { useTranslate } from 'react-admin';
import type { DisplayItem, FieldDescription } from './description';
import { momentText } from './dates';
import { moneyText, StateChip } from './values';

type Translate = ReturnType<typeof useTranslate>;
type Entry = Record<string, unknown>;

/** The entries of a JSON list the schema describes as a table or a timeline; anything else in it is left out. */
const entriesOf = (value: unknown): Entry[] =>
  Array.isArray(value) ? value.filter((entry): entry is Entry => !!entry && typeof entry === 'object') : [];

/**
 * One part of an entry as the screen's language writes it: a moment in the viewer's locale, money in reais, a state by
 * its label (`values.<part>.<value>`), an empty part as the labels say (`items.<field>.empty.<part>`: 'sem vínculo').
 */
function partText(
  resource: string,
  source: string,
  item: DisplayItem,
  value: unknown,
  translate: Translate,
  lang: string,
) {
  if (value == null || value === '')
    return translate(`resources.${resource}.items.${source}.empty.${item.name}`, {
      _: translate('app.list.empty_value'),
    });
  if (item.kind === 'datetime') {
    return momentText(value);
  }
  if (item.display === 'money') return moneyText(value, lang);
  if (item.kind === 'state')
    return translate(`resources.${resource}.values.${item.name}.${String(value)}`, { _: String(value) });
  if (item.kind === 'int' && typeof value === 'number') return value.toLocaleString(lang);
  return String(value);
}

const heading = (resource: string, source: string, item: DisplayItem, translate: Translate) =>
  translate(`resources.${resource}.items.${source}.${item.name}`, { _: item.name });

interface DisplayProps {
  resource: string;
  source: string;
  field: FieldDescription;
  value: unknown;
  lang: string;
}

/**
 * A JSON list shown as a small table (an order's lines: SKU, name, quantity, price, Hiper product): a row per entry,
 * a column per part the schema declares, numbers and money to the right; on a phone, each entry as its parts under
 * their labels, so nothing is wider than the screen.
 */
export function EntriesTable({ resource, source, field, value, lang }: DisplayProps) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const entries = entriesOf(value);
  const items = field.items ?? [];
  if (!entries.length) return <>{translate(`resources.${resource}.items.${source}.none`, { _: '—' })}</>;
  const label = translate(`resources.${resource}.fields.${source}`);
  const numeric = (item: DisplayItem) => item.kind === 'int' || item.display === 'money';
  if (phone)
    return (
      <Box component="ul" aria-label={label} sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
        {entries.map((entry, row) => (
          <Box component="li" key={row} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, py: 1 }}>
            <Box
              component="dl"
              sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.25 }}
            >
              {items.map((item) => (
                <Fragment key={item.name}>
                  <Box component="dt" sx={{ color: 'text.secondary' }}>
                    {heading(resource, source, item, translate)}
                  </Box>
                  <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                    {partText(resource, source, item, entry[item.name], translate, lang)}
                  </Box>
                </Fragment>
              ))}
            </Box>
          </Box>
        ))}
      </Box>
    );
  return (
    // A word breaks only where it cannot fit whole (the dialog's own rule breaks anywhere: 'SK|U').
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflowWrap: 'break-word' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {items.map((item) => (
              <TableCell key={item.name} align={numeric(item) ? 'right' : 'left'} sx={{ whiteSpace: 'nowrap' }}>
                {heading(resource, source, item, translate)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((entry, row) => (
            <TableRow key={row} sx={{ '&:last-child td': { borderBottom: 0 } }}>
              {items.map((item) => {
                const missing = entry[item.name] == null || entry[item.name] === '';
                return (
                  <TableCell
                    key={item.name}
                    align={numeric(item) ? 'right' : 'left'}
                    sx={{
                      whiteSpace: numeric(item) ? 'nowrap' : undefined,
                      color: missing ? 'text.secondary' : undefined,
                      fontStyle: missing ? 'italic' : undefined,
                    }}
                  >
                    {partText(resource, source, item, entry[item.name], translate, lang)}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * A JSON list shown as a timeline (an order's history): one step per entry, oldest first, its moment in the viewer's
 * locale, its state as the list's chip, and its other parts (the note) under them.
 */
export function Timeline({ resource, source, field, value, lang }: DisplayProps) {
  const translate = useTranslate();
  const entries = entriesOf(value);
  const items = field.items ?? [];
  if (!entries.length) return <>{translate(`resources.${resource}.items.${source}.none`, { _: '—' })}</>;
  const moment = items.find((item) => item.kind === 'datetime');
  const state = items.find((item) => item.kind === 'state');
  const others = items.filter((item) => item !== moment && item !== state);
  return (
    <Box
      component="ol"
      aria-label={translate(`resources.${resource}.fields.${source}`)}
      sx={{ m: 0, p: 0, listStyle: 'none' }}
    >
      {entries.map((entry, step) => (
        <Box
          component="li"
          key={step}
          sx={{
            position: 'relative',
            pl: 3,
            pb: step === entries.length - 1 ? 0 : 2,
            // The line joining the steps, and each step's dot on it.
            '&::before': {
              content: '""',
              position: 'absolute',
              left: 5,
              top: 14,
              bottom: step === entries.length - 1 ? 'auto' : 0,
              borderLeft: 2,
              borderColor: 'divider',
            },
            '&::after': {
              content: '""',
              position: 'absolute',
              left: 0,
              top: 6,
              width: 12,
              height: 12,
              borderRadius: '50%',
              bgcolor: step === entries.length - 1 ? 'primary.main' : 'divider',
            },
          }}
        >
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
            {moment && (
              <Box component="time" dateTime={String(entry[moment.name] ?? '')} sx={{ fontWeight: 500 }}>
                {partText(resource, source, moment, entry[moment.name], translate, lang)}
              </Box>
            )}
            {state && entry[state.name] != null && (
              <StateChip
                tone={state.tones?.[String(entry[state.name])]}
                text={partText(resource, source, state, entry[state.name], translate, lang)}
              />
            )}
          </Box>
          {others.map((item) =>
            entry[item.name] == null || entry[item.name] === '' ? null : (
              <Box key={item.name} sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
                {partText(resource, source, item, entry[item.name], translate, lang)}
              </Box>
            ),
          )}
        </Box>
      ))}
    </Box>
  );
}
