import { MenuItem, TextField } from '@mui/material';
import { ReferenceField, useListContext, useTranslate } from 'react-admin';
import { typeOfResource, type ResourceName } from '../dataProvider/resourceTypes';
import { fieldsOf } from './description';

/** A select per state field the schema marks @filterable: every value, or one. */
export function StateFilters({ resource }: { resource: ResourceName }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const fields = Object.entries(fieldsOf(typeOfResource(resource))).filter(([, f]) => f.filterable && f.values);
  return fields.map(([source, field]) => {
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
        sx={{ minWidth: 160 }}
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
