import { Box } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import type { ColumnCustomization } from '../crud/columns';
import { ResourceList } from '../crud/ResourceList';
import { Truncated } from '../crud/values';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import type { ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { firstErrorText, reasonText, waitingText, type RunError } from './runErrors';

/** Every error of a run, one under the other: its product (SKU and Hiper's id) or the whole run, and what went wrong. */
function RunErrors({ errors }: { errors: RunError[] }) {
  const translate = useTranslate();
  if (!errors.length) return <>{translate('resources.sincronizacoes.no_errors')}</>;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }}>
      {errors.map((error, i) => (
        <li key={i}>
          <Box component="span" sx={{ display: 'block', fontWeight: 500 }}>
            {error.sku
              ? translate('resources.sincronizacoes.error_sku', { sku: error.sku })
              : translate('resources.sincronizacoes.whole_run')}
          </Box>
          <Box component="span" sx={{ display: 'block' }}>
            {reasonText(error, translate)}
          </Box>
          {error.hiper_id && (
            <Box
              component="span"
              sx={{ display: 'block', color: 'text.secondary', fontSize: 13, overflowWrap: 'anywhere' }}
            >
              {translate('resources.sincronizacoes.error_product', { id: error.hiper_id })}
            </Box>
          )}
        </li>
      ))}
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
      source: 'errors',
      text: (record, translate) => firstErrorText(errorsOf(record), translate),
      render: (record) => <FirstError record={record} />,
      dialog: (record) => <RunErrors errors={errorsOf(record)} />,
    },
    {
      source: 'waiting',
      text: (record, translate) => waitingText(record.waiting, translate),
      render: (record) => <WaitingCell record={record} />,
      dialog: (record) => <WaitingDetail record={record} />,
    },
    'queued_at',
    'finished_at',
    'created',
    'updated',
    'unchanged',
    'failed',
  ];
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ResourceList resource={resource} columns={columns} representation={(run) => String(run.kind ?? '')} />
    </ScreenLanguage>
  );
}

function FirstError({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  return <Truncated text={firstErrorText(errorsOf(record), translate)} width={220} />;
}

function WaitingCell({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  // Whole, on as many lines as it takes: which attempt and when are at its end.
  return (
    <Box component="span" sx={{ display: 'block', minWidth: 180, maxWidth: 220 }}>
      {waitingText(record.waiting, translate)}
    </Box>
  );
}

/** The dialog's line: the step waiting, or that nothing waits. */
function WaitingDetail({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  return <>{record.waiting ? waitingText(record.waiting, translate) : translate('app.list.empty_value')}</>;
}
