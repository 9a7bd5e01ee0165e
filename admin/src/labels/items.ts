/** The items screen's texts (`resources.items` in react-admin's convention): see ./index.ts for what each key says. */
export default {
  menu: 'Itens',
  language: 'en',
  name: 'Item |||| Items',
  fields: { id: 'ID', title: 'Title', description: 'Description' },
  title: 'Items Management',
  table: 'Items',
  empty: "You don't have any items yet.",
  type: 'item |||| itens',
  action: { create: 'Adicionar Item', edit: 'Editar Item', delete: 'Deletar Item' },
  notifications: { created: 'Item created successfully.', updated: 'Item updated successfully.' },
  navigation: { previous: 'Previous', page: 'Page %{page}', next: 'Next' },
  validation: { title: { required: 'Title é obrigatório.' } },
};
