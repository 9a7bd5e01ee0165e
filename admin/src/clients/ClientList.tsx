import { ResourceList } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import { portugueseI18nProvider } from '../i18n';

const columns = [
  'url',
  'nuvemshop_store_id',
  'hiper_token',
  'nuvemshop_token',
  'hiper_sync_update_image',
  'hiper_sync_update_dimensions',
];

/**
 * /clientes: Gerenciar clientes, all in Portuguese. The columns are the fields the schema lists (the URL, the store id,
 * whether each token is set, both sync flags), in this order, and the form's inputs follow it.
 */
export default function ClientList() {
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ResourceList
        resource="clientes"
        columns={columns}
        form={{ order: columns }}
        representation={(client) => client.url}
      />
    </ScreenLanguage>
  );
}
