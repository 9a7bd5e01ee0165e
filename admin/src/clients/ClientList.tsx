import { ResourceList } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import { portugueseI18nProvider } from '../i18n';

/**
 * /clientes: Gerenciar clientes, all in Portuguese. The columns are the fields the schema lists (the URL, the store id,
 * whether each token is set, both sync flags) in the order the gateway declares them; the form asks for what is
 * required first, then the texts, the store id and the switches.
 */
export default function ClientList() {
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ResourceList resource="clientes" representation={(client) => client.url} />
    </ScreenLanguage>
  );
}
