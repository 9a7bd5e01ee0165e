import { ResourceList } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import { portugueseI18nProvider } from '../i18n';

/**
 * /clientes: Gerenciar clientes, all in Portuguese. The URL comes first; the other columns are the fields the schema
 * lists (the store id, whether each token is set, both sync flags).
 */
export default function ClientList() {
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ResourceList
        resource="clientes"
        columns={['url', 'nuvemshop_store_id']}
        representation={(client) => client.url}
      />
    </ScreenLanguage>
  );
}
