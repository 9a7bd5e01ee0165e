import { Box } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import { ResourceList, Truncated, type ColumnCustomization } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import type { ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { firstErrorText, reasonText, waitingText, type RunError } from './runErrors';

/** Every error of a run, in a table: the product (Hiper's id), its SKU and what went wrong. */
function RunErrors({ errors }: { errors: RunError[] }) {
  const translate = useTranslate();
  if (!errors.length) return <>{translate('resources.sincronizacoes.no_errors')}</>;
  const heading = (key: string) => (
    <Box component="th" scope="col" sx={{ textAlign: 'left', fontWeight: 500, pr: 1 }}>
      {translate(`resources.sincronizacoes.error_columns.${key}`)}
    </Box>
  );
  return (
    <Box
      component="table"
      sx={{ borderCollapse: 'collapse', width: '100%', '& td, & th': { verticalAlign: 'top', py: 0.5 } }}
    >
      <thead>
        <tr>
          {heading('product')}
          {heading('sku')}
          {heading('message')}
        </tr>
      </thead>
      <tbody>
        {errors.map((error, i) => (
          <tr key={i}>
            <Box component="td" sx={{ pr: 1, overflowWrap: 'anywhere' }}>
              {error.hiper_id || translate('resources.sincronizacoes.whole_run')}
            </Box>
            <Box component="td" sx={{ pr: 1 }}>
              {error.sku ?? '—'}
            </Box>
            <td>{reasonText(error, translate)}</td>
          </tr>
        ))}
      </tbody>
    </Box>
  );
}

const errorsOf = (record: RaRecord) => (Array.isArray(record.errors) ? (record.errors as RunError[]) : []);

/**
 * The Sincronizações screen as its declaration draws it, but for why: a run's first error in the list and all of them
 * in its dialog, in the screen's language, and a step waiting to try a platform again with when it will.
 */
export default function SyncRunList({ resource }: { resource: ResourceName }) {
  const columns: (string | ColumnCustomization)[] = [
    'client_id',
    'kind',
    'state',
    {
      source: 'waiting',
      text: (record, translate) => waitingText(record.waiting, translate),
      render: (record) => <WaitingCell record={record} />,
    },
    'queued_at',
    'finished_at',
    'created',
    'updated',
    'unchanged',
    'failed',
    {
      source: 'errors',
      text: (record, translate) => firstErrorText(errorsOf(record), translate),
      render: (record) => <FirstError record={record} />,
      dialog: (record) => <RunErrors errors={errorsOf(record)} />,
    },
  ];
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ResourceList resource={resource} columns={columns} representation={(run) => String(run.kind ?? '')} />
    </ScreenLanguage>
  );
}

function FirstError({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  return <Truncated text={firstErrorText(errorsOf(record), translate)} width={260} />;
}

function WaitingCell({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  return <Truncated text={waitingText(record.waiting, translate)} width={260} />;
}
