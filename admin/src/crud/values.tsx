import { Box, styled, Tooltip } from '@mui/material';
import type { RaRecord, useTranslate } from 'react-admin';
import { declarationOf, missingFor } from '../dataProvider/resourceTypes';
import { labelsOf } from '../labels';
import { dayText, momentText } from './dates';
import type { FieldDescription, Tone } from './description';

export type Translate = ReturnType<typeof useTranslate>;

const TruncatedText = styled('span')({
  display: 'block',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

/** A cell's text cut at 150px, with the full text on hover. */
export function Truncated({ text, width = 150 }: { text: string; width?: number }) {
  // Fixed styles and the width inline: a table draws many of these, and `sx` is worked out on every render.
  return (
    <TruncatedText title={text} style={{ maxWidth: width }}>
      {text}
    </TruncatedText>
  );
}

/** Moments as every screen writes them (dates.ts), whatever the browser's or the screen's language: 15/03/2026 14:30. */
export function dateFormatOf(_lang?: string) {
  return { format: momentText };
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount given as decimal text ('99.90') as the screen's language writes money in reais: R$ 99,90 on a Portuguese
 * screen, R$99.90 on an English one. Text that is not a number stays as it is.
 */
export function moneyText(value: unknown, lang = 'pt-BR'): string {
  const amount = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(amount) || String(value).trim() === '') return String(value);
  let format = moneyFormats.get(lang);
  if (!format) moneyFormats.set(lang, (format = new Intl.NumberFormat(lang, { style: 'currency', currency: 'BRL' })));
  return format.format(amount);
}

/**
 * How a field reads by default: a secret says whether it is set, a boolean yes or no, a moment in the viewer's locale,
 * money as money (`@display(as: "money")`: R$ 99,90), a state as its label says (`values.<field>.<value>`), a JSON
 * list as its length (a run's errors: how many), an empty optional value as the screen's language writes it ('—',
 * 'N/A' in English), anything else as it is.
 */
export function defaultText(
  resource: string,
  source: string,
  field: FieldDescription | undefined,
  value: unknown,
  translate: Translate,
  /** The screen's language where it is not the document's (pt-BR). */
  lang = 'pt-BR',
): string {
  if (field?.secret) return translate(value ? 'app.secret.set' : 'app.secret.unset');
  if (value == null || value === '') return field?.nullable ? translate('app.list.empty_value') : '';
  if (field?.type === 'Boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  if (field?.type === 'DateTime') return momentText(value);
  if (field?.type === 'Date') return dayText(value);
  if (field?.display === 'money') return moneyText(value, lang);
  if (field?.type === 'JSON') return Array.isArray(value) ? String(value.length) : JSON.stringify(value);
  // A state, or a text of a few values the labels name (a mail's kind: `Recuperação de senha`), in words.
  if (field?.values || (field?.type === 'String' && typeof value === 'string' && /^[\w-]{1,64}$/.test(value)))
    return translate(`resources.${resource}.values.${source}.${String(value)}`, { _: String(value) });
  return String(value);
}

/**
 * A state as a chip of its declared tone (outlined, as MUI's small Chip), named as its label says, in a readable shade;
 * with `hint`, that text in a tooltip (and as the chip's description), the chip then reachable by keyboard.
 */
export function StateChip({ tone, text, hint }: { tone: Tone | undefined; text: string; hint?: string }) {
  const shade = tone ? `textShade.${tone}` : 'text.secondary';
  const chip = (
    <Box
      component="span"
      tabIndex={hint ? 0 : undefined}
      sx={{
        display: 'inline-block',
        px: 1,
        border: 1,
        borderColor: shade,
        color: shade,
        borderRadius: 4,
        fontSize: 13,
        whiteSpace: 'nowrap',
      }}
    >
      {text}
    </Box>
  );
  return hint ? (
    <Tooltip title={hint} describeChild>
      {chip}
    </Tooltip>
  ) : (
    chip
  );
}

/**
 * Why a record's state keeps an action from it, where it lacks what the action needs: 'Falta o ID da loja Nuvemshop'
 * (`actions.<name>.missing` in the screen's labels).
 */
export function missingText(resource: string, record: RaRecord, source: string, translate: Translate) {
  for (const action of declarationOf(resource).actions ?? []) {
    if (action.unavailable?.field !== source || !action.unavailable.values.includes(String(record[source]))) continue;
    const missing = missingFor(action, record);
    if (!missing.length) continue;
    const key = `resources.${resource}.actions.${action.name}.missing`;
    const names = missing.map((field) =>
      translate(`${key}.fields.${field}`, { _: translate(`resources.${resource}.fields.${field}`) }),
    );
    const fields =
      names.length > 1 ? `${names.slice(0, -1).join(', ')}${translate(`${key}.and`)}${names.at(-1)}` : names[0];
    return translate(`${key}.${names.length > 1 ? 'many' : 'one'}`, { fields });
  }
  return undefined;
}

/**
 * What a state means for the person reading it, where its label alone does not say what to do (`hints.<field>.<value>`
 * in the screen's labels: a client's "Com falhas"), or nothing.
 */
export function stateHint(resource: string, source: string, value: unknown, translate: Translate) {
  return translate(`resources.${resource}.hints.${source}.${String(value)}`, { _: '' }) || undefined;
}

/**
 * What a record's other fields say beside its state, when they are set (`notes.<state field>.<field>` in the screen's
 * labels, `%{value}` the field's value, a list's bare commas spaced): a client's missing Nuvemshop permissions.
 */
export function stateNotes(resource: string, record: RaRecord, source: string, translate: Translate): string[] {
  const notes = (labelsOf(resource)?.notes as Record<string, Record<string, string>> | undefined)?.[source];
  return Object.keys(notes ?? {})
    .filter((field) => record[field] != null && record[field] !== '')
    .map((field) =>
      translate(`resources.${resource}.notes.${source}.${field}`, {
        value: String(record[field]).replace(/,(?=\S)/g, ', '),
      }),
    );
}

/** A chip's tooltip: its state's hint, then what the record's notes add; nothing when neither says anything. */
export const chipHint = (hint: string | undefined, notes: string[]) =>
  [hint, ...notes].filter(Boolean).join(' ') || undefined;
