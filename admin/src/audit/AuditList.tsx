import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useGetList, useListContext, useTranslate, type RaRecord } from 'react-admin';
import type { ColumnCustomization } from '../crud/columns';
import { ResourceList } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import { Truncated } from '../crud/values';
import { screenOfType, type ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { loadAllLabels } from '../labels';
import labels from '../labels/auditoria';

type Change = { before?: unknown; after?: unknown };
const changesOf = (record: RaRecord): [string, Change][] =>
  record.changes && typeof record.changes === 'object' ? Object.entries(record.changes as Record<string, Change>) : [];

const RESOURCES = labels.resources as Record<string, string>;
/** A resource's name as the sidebar says it (its GraphQL name when it has none). */
const resourceName = (name: unknown) => RESOURCES[String(name)] ?? String(name);

/** A value as the before → after table shows it: text as it is, anything else as JSON. */
function shown(value: unknown, empty: string): string {
  if (value === undefined || value === null || value === '') return empty;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The fields an event changed, each before → after (a create has no before, a delete no after). */
function Changes({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const changes = changesOf(record);
  const empty = translate('resources.auditoria.changes.empty');
  const label = (field: string) => fieldLabel(translate, record, field);
  if (!changes.length) return <>{translate('resources.auditoria.changes.none')}</>;
  return (
    <Box
      component="ul"
      aria-label={translate('resources.auditoria.fields.changes')}
      sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }}
    >
      {changes.map(([field, change]) => (
        <li key={field}>
          <Box component="span" sx={{ display: 'block', fontWeight: 600, overflowWrap: 'anywhere' }}>
            {label(field)}
          </Box>
          <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
            {'before' in change && (
              <Box component="span" sx={{ color: 'text.secondary' }} data-testid="before">
                {shown(change.before, empty)}
              </Box>
            )}
            {'before' in change && 'after' in change && ' → '}
            {'after' in change && <span data-testid="after">{shown(change.after, empty)}</span>}
          </Box>
        </li>
      ))}
    </Box>
  );
}

type Translate = (key: string, options?: object) => string;

/** A field as its own screen names it (its texts loaded with the Auditoria's), else as the API does. */
function fieldLabel(translate: Translate, record: RaRecord, field: string): string {
  const screen = record.resource === 'User' ? 'admin' : screenOfType(String(record.resource));
  return screen ? translate(`resources.${screen}.fields.${field}`, { _: field }) : field;
}

/** The fields an event changed, in a line: the first three, then how many more (a creation sets them all). */
function fieldsText(record: RaRecord, translate: Translate): string {
  const fields = changesOf(record).map(([field]) => fieldLabel(translate, record, field));
  if (fields.length <= 3) return fields.join(', ');
  return translate('resources.auditoria.changes.more', {
    fields: fields.slice(0, 3).join(', '),
    count: fields.length - 3,
  });
}

/** Who, which resource, which record and when: the filters the gateway takes, the dates as whole days. */
function AuditFilters() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const values = filterValues as Record<string, string | undefined>;
  const { data: users = [] } = useGetList('admin', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'email', order: 'ASC' },
  });
  // Two filters set one right after the other (a date, then the next) both stay: each starts from the last one set
  // here (only these inputs change the screen's filters once it is open), not from the list's filters, which follow
  // the address a moment later.
  const latest = useRef(values);
  const set = (name: string, value: string | undefined) => {
    const { [name]: _dropped, ...others } = latest.current;
    latest.current = value ? { ...others, [name]: value } : others;
    setFilters(latest.current);
  };
  const t = (key: string) => translate(`resources.auditoria.filters.${key}`);
  const field = { size: 'small' as const, slotProps: { inputLabel: { shrink: true } } };
  const sx = { minWidth: 0, flex: { xs: '1 1 140px', sm: '0 1 200px' } };
  return (
    <Box
      role="search"
      aria-label={translate('resources.auditoria.title')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1, alignItems: 'center' }}
    >
      <TextField
        {...field}
        select
        label={t('user')}
        value={values.user_id ?? ''}
        onChange={(e) => set('user_id', e.target.value)}
        sx={sx}
        slotProps={{ ...field.slotProps, select: { displayEmpty: true } }}
      >
        <MenuItem value="">{t('all')}</MenuItem>
        {users.map((user) => (
          <MenuItem key={user.id} value={String(user.id)}>
            {String(user.email)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...field}
        select
        label={t('resource')}
        value={values.resource ?? ''}
        onChange={(e) => set('resource', e.target.value)}
        sx={sx}
        slotProps={{ ...field.slotProps, select: { displayEmpty: true } }}
      >
        <MenuItem value="">{t('all')}</MenuItem>
        {Object.entries(RESOURCES).map(([name, words]) => (
          <MenuItem key={name} value={name}>
            {words}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...field}
        // Typed freely, applied when left or on Enter; drawn anew when the filter changes elsewhere (cleared).
        key={values.record_id ?? ''}
        label={t('record')}
        defaultValue={values.record_id ?? ''}
        onBlur={(e) => set('record_id', e.target.value.trim() || undefined)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') set('record_id', (e.target as HTMLInputElement).value.trim() || undefined);
        }}
        sx={sx}
      />
      <TextField
        {...field}
        type="date"
        label={t('since')}
        value={values.since ?? ''}
        onChange={(e) => set('since', e.target.value || undefined)}
        sx={sx}
      />
      <TextField
        {...field}
        type="date"
        label={t('until')}
        // The day given, to its last moment.
        value={values.until?.slice(0, 10) ?? ''}
        onChange={(e) => set('until', e.target.value ? `${e.target.value}T23:59:59.999Z` : undefined)}
        sx={sx}
      />
      {Object.keys(values).length > 0 && (
        <Button
          size="small"
          onClick={() => {
            latest.current = {};
            setFilters({});
          }}
        >
          {t('clear')}
        </Button>
      )}
    </Box>
  );
}

/**
 * The Auditoria screen, for superusers: every write a person made, newest first (when, who, from where, what, which
 * record), filtered by user, resource, record and dates; an event opens read-only with its fields before → after.
 */
export default function AuditList({ resource }: { resource: ResourceName }) {
  // Every screen's texts, which name the fields an event changed: drawn again once they are loaded.
  const [, setLabelsLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    void loadAllLabels().then(() => live && setLabelsLoaded(true));
    return () => {
      live = false;
    };
  }, []);
  const columns: (string | ColumnCustomization)[] = [
    'created_at',
    { source: 'user_email', render: (record) => <Truncated text={String(record.user_email ?? '—')} /> },
    'address',
    'action',
    {
      source: 'resource',
      text: (record) => resourceName(record.resource),
      dialog: (record) => resourceName(record.resource),
    },
    { source: 'record_id', render: (record) => <Truncated text={String(record.record_id)} /> },
    {
      source: 'changes',
      text: (record, translate) => fieldsText(record, translate),
      dialog: (record) => <Changes record={record} />,
    },
  ];
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ResourceList
        resource={resource}
        columns={columns}
        representation={(record) => `${resourceName(record.resource)} ${String(record.record_id)}`}
        filterBar={<AuditFilters />}
      />
    </ScreenLanguage>
  );
}
