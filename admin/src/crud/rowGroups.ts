import { createContext, useContext, type ReactNode } from 'react';
import type { RaRecord } from 'react-admin';

/**
 * How a screen gathers rows that belong together under a heading of their own (an order's shipments under its
 * number): the group of each record, the heading of a group, and the order its rows are shown in.
 */
export interface RowGroups {
  /** The group a record belongs to; null: a row on its own. */
  keyOf: (record: RaRecord) => string | null;
  /** Whether a group is headed at all (one row alone may not need it). */
  headed?: (records: RaRecord[]) => boolean;
  /** The heading's text, from the group's records in the order shown. */
  heading: (records: RaRecord[]) => ReactNode;
  /** The order of a group's rows (else the page's). */
  compare?: (a: RaRecord, b: RaRecord) => number;
}

/** A page's rows in groups: each group where its first row is on the page, a row on its own as a group of one. */
export interface RowGroup {
  key: string;
  heading: ReactNode | null;
  records: RaRecord[];
}

export function groupRows(data: readonly RaRecord[], groups: RowGroups | undefined): RowGroup[] {
  if (!groups) return data.map((record) => ({ key: `row ${String(record.id)}`, heading: null, records: [record] }));
  const found = new Map<string, RaRecord[]>();
  const order: (string | RaRecord)[] = [];
  for (const record of data) {
    const key = groups.keyOf(record);
    if (key === null) {
      order.push(record);
      continue;
    }
    if (!found.has(key)) {
      found.set(key, []);
      order.push(key);
    }
    found.get(key)!.push(record);
  }
  return order.map((entry) => {
    if (typeof entry !== 'string') return { key: `row ${String(entry.id)}`, heading: null, records: [entry] };
    const records = groups.compare ? [...found.get(entry)!].sort(groups.compare) : found.get(entry)!;
    const headed = groups.headed ? groups.headed(records) : true;
    return { key: `group ${entry}`, heading: headed ? groups.heading(records) : null, records };
  });
}

/** A group heading's element id, from the group's key: the group's rows are named by their heading. */
export const groupHeadingId = (key: string) => `row-group-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The screen's groups, for the rows (table or phone list) it draws. */
export const RowGroupsContext = createContext<RowGroups | undefined>(undefined);
export const useRowGroups = () => useContext(RowGroupsContext);
