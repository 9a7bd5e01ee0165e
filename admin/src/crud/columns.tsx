import { Suspense, useMemo, type ReactNode } from 'react';
import { BooleanField, downloadCSV, useTranslate, type Exporter, type RaRecord } from 'react-admin';
import { screenOfType, typeOfResource, type ResourceName } from '../dataProvider/resourceTypes';
import { toCsv } from './csv';
import { ReferenceLink } from './deferred';
import { fieldsOf, type FieldDescription } from './description';
import {
  chipHint,
  defaultText,
  missingText,
  StateChip,
  stateHint,
  stateNotes,
  Truncated,
  type Translate,
} from './values';

/** A column a screen words itself: its text (shown and exported) and, if it differs, how it is drawn. */
export interface ColumnCustomization {
  source: string;
  text?: (record: RaRecord, translate: Translate) => string;
  render?: (record: RaRecord) => ReactNode;
  /** How a read-only record's dialog shows it, where it says more than the column (a run's every error). */
  dialog?: (record: RaRecord) => ReactNode;
}

export interface Column {
  source: string;
  field: FieldDescription | undefined;
  text: (record: RaRecord) => string;
  render: (record: RaRecord) => ReactNode;
  /** How a phone's list shows it, under its label: as the screen draws it, else as text (a yes or no in words). */
  detail: (record: RaRecord) => ReactNode;
}

export function useColumns(
  resource: ResourceName,
  customized: (string | ColumnCustomization)[] | undefined,
  lang: string | undefined,
): Column[] {
  const translate = useTranslate();
  return useMemo(() => {
    const fields = fieldsOf(typeOfResource(resource));
    // The columns are the fields the schema marks @listed: first those the screen names, in its order, then the rest.
    const named = (customized ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.source));
    const rest = Object.keys(fields).filter((name) => fields[name].listed && !named.includes(name));
    return [...(customized ?? []), ...rest].map((entry) => {
      const custom: ColumnCustomization = typeof entry === 'string' ? { source: entry } : entry;
      const field = fields[custom.source];
      const text = (record: RaRecord) =>
        custom.text
          ? custom.text(record, translate)
          : defaultText(resource, custom.source, field, record[custom.source], translate, lang);
      const target = field?.references ? screenOfType(field.references) : undefined;
      const render =
        custom.render ??
        (custom.text
          ? (record: RaRecord) => <Truncated text={text(record)} />
          : field?.type === 'Boolean' && !field.nullable
            ? () => <BooleanField source={custom.source} />
            : field?.values
              ? (record: RaRecord) => (
                  <StateChip
                    tone={field.tones?.[String(record[custom.source])]}
                    text={text(record)}
                    hint={chipHint(
                      missingText(resource, record, custom.source, translate) ??
                        stateHint(resource, custom.source, record[custom.source], translate),
                      stateNotes(resource, record, custom.source, translate),
                    )}
                  />
                )
              : target
                ? (record: RaRecord) =>
                    record[custom.source] == null ? (
                      <Truncated text={text(record)} />
                    ) : (
                      <Suspense fallback={null}>
                        <ReferenceLink source={custom.source} screen={target} />
                      </Suspense>
                    )
                : field?.type === 'DateTime'
                  ? // A moment is short and whole: it may break between its date and its time where room is short.
                    text
                  : (record: RaRecord) => <Truncated text={text(record)} />);
      // A reference is a link on a phone too, not the id it holds, and a state its coloured chip.
      const detail = custom.render ?? (target || field?.values ? render : text);
      return { source: custom.source, field, text, render, detail };
    });
  }, [resource, customized, translate, lang]);
}

/** The fields a read-only dialog draws as the screen says. */
export function dialogDetails(customized: (string | ColumnCustomization)[] | undefined) {
  return Object.fromEntries(
    (customized ?? []).flatMap((entry) =>
      typeof entry !== 'string' && entry.dialog ? [[entry.source, entry.dialog] as const] : [],
    ),
  );
}

/** The exporter: what the columns show, every filtered row (not just the page), as CSV. */
export function useCsvExporter(resource: string, columns: Column[]): Exporter {
  const translate = useTranslate();
  return (records: RaRecord[]) => {
    const header = columns.map((column) => translate(`resources.${resource}.fields.${column.source}`));
    downloadCSV(toCsv([header, ...records.map((record) => columns.map((column) => column.text(record)))]), resource);
  };
}
