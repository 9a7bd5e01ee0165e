import type { RaRecord } from 'react-admin';
import { recordTitle, type ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { labelsOf } from '../labels';
import { ResourceList } from './ResourceList';
import { ScreenLanguage } from './ScreenLanguage';

/**
 * A resource's list screen as its declaration describes it: the columns the schema lists, in its order; add, edit and
 * delete where the resource offers them, a read-only view where it does not; its texts from its labels
 * (labels/<name>.ts), in the language they say (`language: 'pt'` shows react-admin's own texts in Portuguese too).
 */
export default function DeclaredList({ resource }: { resource: ResourceName }) {
  const representation = (record: RaRecord) => recordTitle(resource, record);
  // Its texts are loaded with its code (lists.ts).
  const labels = labelsOf(resource) as { language?: string } | undefined;
  const list = (
    <ResourceList
      resource={resource}
      representation={representation}
      lang={labels?.language === 'en' ? 'en' : undefined}
    />
  );
  return labels?.language === 'pt' ? (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>{list}</ScreenLanguage>
  ) : (
    list
  );
}
