import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Box, Button, FormHelperText, FormLabel, IconButton, TextField } from '@mui/material';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useInput, useTranslate, ValidationError, type Validator } from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import type { DisplayItem } from './description';
import type { InputDescription } from './formInputs';

interface Row {
  id: number;
  key: string;
  value: string;
}

/** What is wrong with one row: a message key and its arguments, per part. */
interface RowProblems {
  key?: [string, Record<string, unknown>?];
  value?: [string, Record<string, unknown>?];
}

let nextRow = 0;

/** The stored text as rows: a JSON object's entries in its order; anything else (nothing, a broken text) none. */
function rowsOf(value: unknown): Row[] {
  if (typeof value !== 'string' || !value.trim()) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    const entries = Array.isArray(parsed)
      ? parsed.filter((pair): pair is [unknown, unknown] => Array.isArray(pair) && pair.length === 2)
      : parsed && typeof parsed === 'object'
        ? Object.entries(parsed)
        : [];
    return entries.map(([key, given]) => ({
      id: nextRow++,
      key: String(key),
      value: given == null ? '' : String(given),
    }));
  } catch {
    return [];
  }
}

/** Each row's problems, as the gateway bounds the map's keys (`items` key) and values (`items` value). */
function problemsOf(rows: Row[], key: DisplayItem | undefined, value: DisplayItem | undefined): RowProblems[] {
  const pattern = key?.pattern ? new RegExp(`^(?:${key.pattern})$`) : undefined;
  const min = value?.min ?? 0;
  return rows.map((row, index) => {
    const problems: RowProblems = {};
    const name = row.key.trim();
    // A row left blank is no entry: it is not saved, and says nothing.
    if (!name && !row.value.trim()) return problems;
    if (!name) problems.key = ['app.map.key_required'];
    else if (key?.max !== undefined && name.length > key.max)
      problems.key = ['ra.validation.maxLength', { max: key.max }];
    else if (pattern && !pattern.test(name)) problems.key = ['app.map.key_pattern'];
    else if (rows.slice(0, index).some((other) => other.key.trim() === name)) problems.key = ['app.map.key_repeated'];
    const typed = row.value.trim();
    if (!typed) problems.value = ['app.map.key_required'];
    else if (!/^\d+$/.test(typed) || Number(typed) < min) problems.value = ['app.map.value_number', { min }];
    else if (value?.max !== undefined && Number(typed) > value.max)
      problems.value = ['app.map.value_max', { max: value.max }];
    return problems;
  });
}

const hasProblems = (problems: RowProblems[]) => problems.some((p) => p.key || p.value);

/**
 * The rows as the stored text: a JSON object of each key and its value as a number (`{"pix": 12}`), nothing (null)
 * without rows. Rows that do not make a valid map yet are kept as a JSON list of pairs, which the validator refuses.
 */
function textOf(rows: Row[], problems: RowProblems[]): string | null {
  const kept = rows.filter((row) => row.key.trim() || row.value.trim());
  if (!kept.length) return null;
  if (hasProblems(problems)) return JSON.stringify(rows.map((row) => [row.key, row.value]));
  return JSON.stringify(Object.fromEntries(kept.map((row) => [row.key.trim(), Number(row.value.trim())])));
}

/**
 * A text holding a JSON object (`@display(as: "map")`: a client's payment methods → Hiper ids) edited as rows of a key
 * and a value that staff add, change and remove; each row checked as the gateway checks it, its problem said beside
 * it in the screen's language. Labels: `items.<field>.key|value|help` in the screen's labels.
 */
export function MapInput({
  resource,
  input,
  label,
  validate,
}: {
  resource: string;
  input: InputDescription;
  label: string;
  validate: Validator[];
}) {
  const translate = useTranslate();
  const labelId = useId();
  const keyItem = input.items?.find((item) => item.name === 'key');
  const valueItem = input.items?.find((item) => item.name === 'value');
  const mapValidator: Validator = useMemo(
    () => (value: unknown) => {
      const rows = rowsOf(value);
      if (typeof value === 'string' && value.trim().startsWith('[')) return 'app.map.invalid';
      return hasProblems(problemsOf(rows, keyItem, valueItem)) ? 'app.map.invalid' : undefined;
    },
    [keyItem, valueItem],
  );
  const { field, fieldState } = useInput({
    source: input.source,
    resource,
    validate: [...validate, mapValidator],
    // Nothing typed is no map: the default applies.
    parse: (value: string | null) => value,
  });
  const { isSubmitted } = useFormState();
  const { trigger } = useFormContext();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(field.value));
  const [blurred, setBlurred] = useState<Set<string>>(() => new Set());
  // The text this editor last wrote: a value the form gets from elsewhere (the record read again, a reset) is read.
  const written = useRef<unknown>(field.value);
  useEffect(() => {
    if (field.value === written.current) return;
    written.current = field.value;
    setRows(rowsOf(field.value));
  }, [field.value]);

  const problems = problemsOf(rows, keyItem, valueItem);
  const change = (next: Row[]) => {
    setRows(next);
    const text = textOf(next, problemsOf(next, keyItem, valueItem));
    written.current = text;
    field.onChange(text);
    // A shown error is checked again at each change (the form checks on blur): fixed rows clear it at once.
    if (fieldState.error) void trigger(input.source);
  };
  const words = (source: string) => `resources.${resource}.items.${input.source}.${source}`;
  const shown = (row: Row, part: 'key' | 'value') => isSubmitted || blurred.has(`${row.id}:${part}`);
  const problemText = (problem: RowProblems['key']) => (problem ? translate(problem[0], problem[1]) : undefined);
  const blur = (row: Row, part: 'key' | 'value') => () => {
    setBlurred((before) => new Set(before).add(`${row.id}:${part}`));
    field.onBlur();
  };

  return (
    <Box role="group" aria-labelledby={labelId} sx={{ mb: 2, width: '100%' }}>
      <FormLabel id={labelId} component="div" sx={{ mb: 1 }}>
        {label}
      </FormLabel>
      {rows.map((row, index) => {
        const keyProblem = shown(row, 'key') ? problemText(problems[index].key) : undefined;
        const valueProblem = shown(row, 'value') ? problemText(problems[index].value) : undefined;
        return (
          // The key and the value side by side (one under the other where there is no room), the remove button
          // beside them.
          <Box key={row.id} sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, mb: 1 }}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1, flex: 1, minWidth: 0 }}>
              <TextField
                size="small"
                label={translate(words('key'), { _: 'key' })}
                value={row.key}
                onChange={(event) => change(rows.map((r) => (r.id === row.id ? { ...r, key: event.target.value } : r)))}
                onBlur={blur(row, 'key')}
                error={!!keyProblem}
                helperText={keyProblem}
                autoComplete="off"
                sx={{ flex: '1 1 160px' }}
              />
              <TextField
                size="small"
                label={translate(words('value'), { _: 'value' })}
                value={row.value}
                onChange={(event) =>
                  change(rows.map((r) => (r.id === row.id ? { ...r, value: event.target.value } : r)))
                }
                onBlur={blur(row, 'value')}
                error={!!valueProblem}
                helperText={valueProblem}
                autoComplete="off"
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                sx={{ flex: '1 1 110px' }}
              />
            </Box>
            <IconButton
              aria-label={translate('app.map.remove', { key: row.key.trim() || index + 1 })}
              onClick={() => change(rows.filter((r) => r.id !== row.id))}
              sx={{ mt: 0.25 }}
            >
              <DeleteOutlineIcon />
            </IconButton>
          </Box>
        );
      })}
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => change([...rows, { id: nextRow++, key: '', value: '' }])}
      >
        {translate('app.map.add')}
      </Button>
      {fieldState.error && (isSubmitted || fieldState.isTouched) ? (
        <FormHelperText error>
          <ValidationError error={fieldState.error.message ?? 'app.map.invalid'} />
        </FormHelperText>
      ) : (
        <FormHelperText>{translate(words('help'), { _: '' })}</FormHelperText>
      )}
    </Box>
  );
}
