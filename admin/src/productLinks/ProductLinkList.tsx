import { ResourceList } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import { recordTitle, type ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { SkuMovements } from './SkuMovements';

/**
 * The Produtos vinculados screen as its declaration draws it, but for a link's dialog: under its fields, its SKU's
 * stock movements, newest first, at every location of its client.
 */
export default function ProductLinkList({ resource }: { resource: ResourceName }) {
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ResourceList
        resource={resource}
        representation={(record) => recordTitle(resource, record)}
        dialogAfter={(record) => <SkuMovements record={record} />}
      />
    </ScreenLanguage>
  );
}
