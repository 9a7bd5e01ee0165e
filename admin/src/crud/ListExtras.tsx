import { Autocomplete, Box, Chip, MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import {
  ReferenceField,
  useGetList,
  useGetMany,
  useGetOne,
  useListContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { recordTitle, screenOfType, typeOfResource, type ResourceName } from '../dataProvider/resourceTypes';
import { fieldsOf } from './description';

/** A select per state field the schema marks @filterable (every value, or one); a search per filterable reference. */
export function StateFilters({ resource }: { resource: ResourceName }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const all = Object.entries(fieldsOf(typeOfResource(resource)));
  const fields = all.filter(([, f]) => f.filterable && f.values);
  const references = all.flatMap(([source, f]) => {
    const target = f.filterable && f.references ? screenOfType(f.references) : undefined;
    return target ? [{ source, target }] : [];
  });
  const states = fields.map(([source, field]) => {
    const current = (filterValues as Record<string, unknown>)[source];
    return (
      <TextField
        key={source}
        select
        size="small"
        label={translate(`resources.${resource}.fields.${source}`)}
        value={typeof current === 'string' ? current : ''}
        onChange={(event) => {
          const { [source]: _dropped, ...others } = filterValues as Record<string, unknown>;
          setFilters(event.target.value ? { ...others, [source]: event.target.value } : others);
        }}
        // Fixed on a desktop (the theme makes text fields full width); sharing a phone's row with the other tools.
        sx={{ minWidth: 0, width: { sm: 180 }, flex: { xs: '1 1 0', sm: '0 0 auto' } }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">{translate('app.list.filter_all')}</MenuItem>
        {field.values!.map((value) => (
          <MenuItem key={value} value={value}>
            {translate(`resources.${resource}.values.${source}.${value}`, { _: value })}
          </MenuItem>
        ))}
      </TextField>
    );
  });
  return [
    ...states,
    ...references.map(({ source, target }) => (
      <ReferenceFilter
        key={source}
        label={translate(`resources.${resource}.fields.${source}`)}
        source={source}
        target={target}
      />
    )),
  ];
}

/**
 * A reference to filter by: the target's records searched by what is typed (its `q`) and named by its title; empty,
 * every record.
 */
function ReferenceFilter({ label, source, target }: { label: string; source: string; target: string }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const [typed, setTyped] = useState('');
  // Empty until the chosen record is read (a list opened with the filter in its address), never its id.
  const name = (record: RaRecord) => recordTitle(target, record);
  const current = (filterValues as Record<string, unknown>)[source];
  const chosen = typeof current === 'string' ? current : undefined;
  const { data: options = [] } = useGetList(target, {
    pagination: { page: 1, perPage: 20 },
    filter: typed ? { q: typed } : {},
  });
  const { data: selected } = useGetOne(target, { id: chosen! }, { enabled: !!chosen });
  const value = chosen ? (selected ?? { id: chosen }) : null;
  return (
    <Autocomplete
      size="small"
      // Wide enough for a store's address on a desktop; on a phone it shares the row with the state filter.
      sx={{ flex: { xs: '1 1 0', sm: '0 0 auto' }, minWidth: { xs: 0, sm: 140 }, width: { sm: 280 } }}
      options={options}
      value={value}
      filterOptions={(shown) => shown}
      getOptionLabel={name}
      isOptionEqualToValue={(option, other) => option.id === other.id}
      onInputChange={(_, text, reason) => reason === 'input' && setTyped(text)}
      onChange={(_, record) => {
        const { [source]: _dropped, ...others } = filterValues as Record<string, unknown>;
        setFilters(record ? { ...others, [source]: record.id } : others);
      }}
      noOptionsText={translate('ra.navigation.no_results')}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={translate('app.list.filter_all')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      )}
    />
  );
}

/** A reference as a link to the record it names, in that record's list, named as that resource names a record. */
export function ReferenceLink({ source, screen }: { source: string; screen: string }) {
  return (
    <ReferenceField
      source={source}
      reference={screen}
      // Its words are in the theme's readable shade of the brand colour (themes/index.ts: RaReferenceField).
      link={(record) => `/${screen}?filter=${encodeURIComponent(JSON.stringify({ ids: [record.id] }))}`}
    />
  );
}

/**
 * What a list opened from another screen is narrowed to (a client's runs from its row menu, a run's client from its
 * link), as chips above the rows: each names the records by their titles, and its delete button shows every row again.
 */
export function FilterChips({ resource }: { resource: ResourceName }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const fields = fieldsOf(typeOfResource(resource));
  const chips = Object.entries(filterValues as Record<string, unknown>).flatMap(([source, value]) => {
    if (source === 'ids' && Array.isArray(value) && value.length)
      return [
        {
          source,
          target: resource as string,
          ids: value.map(String),
          label: translate(`resources.${resource}.name`, { smart_count: value.length }),
        },
      ];
    const target = fields[source]?.references && screenOfType(fields[source].references!);
    if (!target || typeof value !== 'string') return [];
    return [{ source, target, ids: [value], label: translate(`resources.${resource}.fields.${source}`) }];
  });
  if (!chips.length) return null;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1 }}>
      {chips.map(({ source, target, ids, label }) => (
        <FilterChip
          key={source}
          target={target}
          ids={ids}
          label={label}
          removeLabel={translate('app.list.remove_filter')}
          onDelete={() => {
            const { [source]: _dropped, ...others } = filterValues as Record<string, unknown>;
            setFilters(others);
          }}
        />
      ))}
    </Box>
  );
}

function FilterChip({
  target,
  ids,
  label,
  removeLabel,
  onDelete,
}: {
  target: string;
  ids: string[];
  label: string;
  removeLabel: string;
  onDelete: () => void;
}) {
  const { data } = useGetMany(target, { ids });
  const names = (data ?? []).map((record) => recordTitle(target, record)).join(', ');
  // Named once its records are read, never by their ids.
  if (!names) return null;
  const text = `${label}: ${names}`;
  return (
    <Chip
      label={text}
      title={text}
      onDelete={onDelete}
      // Focused, the chip is removed with Delete or Backspace, as MUI's chips are; its own button for a pointer.
      aria-description={removeLabel}
      sx={{ maxWidth: '100%' }}
    />
  );
}
