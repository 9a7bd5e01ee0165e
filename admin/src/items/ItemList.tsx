import { ResourceList } from '../crud/ResourceList';

/** /items: Items Management. The columns the specification names; an empty description reads 'N/A'. */
export default function ItemList() {
  return (
    <ResourceList
      resource="items"
      columns={[
        'id',
        'title',
        { source: 'description', text: (item, translate) => item.description || translate('app.list.empty_value') },
      ]}
      representation={(item) => item.title}
    />
  );
}
