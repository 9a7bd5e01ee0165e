import type { RaRecord } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { ResourceList } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import { recordTitle, type ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { ClientLocations } from './ClientLocations';

/** The client a list's address is narrowed to (`?filter={"client_id": ...}`, a client's row menu), if any. */
function clientOf(search: string): string | undefined {
  try {
    const filter = JSON.parse(new URLSearchParams(search).get('filter') ?? '{}') as Record<string, unknown>;
    return typeof filter.client_id === 'string' && filter.client_id ? filter.client_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Estoques screen: opened from a client's row menu, that client's locations in the store's priority order, to
 * reorder, make one the default and give each its Hiper key (ClientLocations); opened otherwise, every location as
 * the declaration draws them.
 */
export default function LocationList({ resource }: { resource: ResourceName }) {
  const clientId = clientOf(useLocation().search);
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      {clientId ? (
        <ClientLocations key={clientId} clientId={clientId} />
      ) : (
        <ResourceList resource={resource} representation={(record: RaRecord) => recordTitle(resource, record)} />
      )}
    </ScreenLanguage>
  );
}
