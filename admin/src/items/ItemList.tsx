import type { ItemFieldsFragment as Item } from '../../../schema/generated/graphql';
import { Truncated } from '../list/DataTable';
import { ListPage } from '../list/ListPage';
import { englishPagination } from '../list/Pagination';
import { ItemDialog } from './ItemDialog';

/** /items: Items Management. */
export default function ItemList() {
  return (
    <ListPage<Item>
      resource="items"
      title="Items Management"
      addLabel="Adicionar Item"
      tableLabel="Items"
      empty="You don't have any items yet."
      paginationLabels={englishPagination}
      columns={[
        { label: 'ID', render: (item) => <Truncated text={item.id} /> },
        { label: 'Title', render: (item) => <Truncated text={item.title} /> },
        { label: 'Description', render: (item) => <Truncated text={item.description || 'N/A'} /> },
      ]}
      actions={{
        heading: 'Actions',
        label: (item) => `Actions: ${item.title}`,
        edit: 'Editar Item',
        remove: 'Deletar Item',
      }}
      dialog={({ open, record, onClose }) => <ItemDialog open={open} item={record} onClose={onClose} />}
      deleteType="item"
      deleteTitle="Deletar Item"
    />
  );
}
