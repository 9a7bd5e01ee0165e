import { Box, Link as MuiLink } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import { Link } from 'react-router-dom';
import type { ColumnCustomization } from '../crud/columns';
import { ResourceList } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import { recordTitle, type ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { reasonLink, reasonsOf } from './reasonLinks';

/** A client's reasons, worst first, each with the link to what shows it; "Nada a fazer" when there are none. */
function Reasons({ record, dialog = false }: { record: RaRecord; dialog?: boolean }) {
  const translate = useTranslate();
  const reasons = reasonsOf(record.reasons);
  if (!reasons.length) return <>{translate('resources.saude.no_reasons')}</>;
  return (
    <Box
      component="ul"
      sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1, minWidth: dialog ? undefined : 260, maxWidth: 480 }}
    >
      {reasons.map((reason, i) => {
        const link = reasonLink(String(record.client_id), reason);
        return (
          <li key={`${reason.code}-${reason.kind ?? ''}-${i}`}>
            <Box component="span" sx={{ display: 'block', fontWeight: reason.health === 'critical' ? 600 : undefined }}>
              {reason.text}
            </Box>
            <MuiLink component={Link} to={link.to} variant="body2">
              {translate(`resources.saude.links.${link.label}`)}
            </MuiLink>
          </li>
        );
      })}
    </Box>
  );
}

/** The reasons as one line of text (the phone's list and the CSV). */
const reasonsText = (record: RaRecord, translate: (key: string) => string) => {
  const reasons = reasonsOf(record.reasons);
  return reasons.length ? reasons.map((r) => r.text).join('; ') : translate('resources.saude.no_reasons');
};

/**
 * The Saúde screen: every client worst first (the gateway's order), its health and why, each reason leading to the
 * runs, orders or client that show it.
 */
export default function HealthList({ resource }: { resource: ResourceName }) {
  const columns: (string | ColumnCustomization)[] = [
    'client_name',
    'health',
    {
      source: 'reasons',
      text: reasonsText,
      render: (record) => <Reasons record={record} />,
      dialog: (record) => <Reasons record={record} dialog />,
    },
    'health_since',
  ];
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ResourceList
        resource={resource}
        columns={columns}
        representation={(record: RaRecord) => recordTitle(resource, record)}
      />
    </ScreenLanguage>
  );
}
