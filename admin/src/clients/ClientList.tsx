import type { ClientFieldsFragment as Client } from '../../../schema/generated/graphql';
import { Truncated } from '../list/DataTable';
import { ListPage } from '../list/ListPage';
import { portuguesePagination } from '../list/Pagination';
import { ClientDialog } from './ClientDialog';

/** /clientes: the store connections. */
export default function ClientList() {
  return (
    <ListPage<Client>
      resource="clientes"
      title="Gerenciar clientes"
      addLabel="Adicionar Cliente"
      tableLabel="Clientes"
      empty="Nenhum cliente cadastrado."
      paginationLabels={portuguesePagination}
      columns={[{ label: 'URL', render: (client) => <Truncated text={client.url} /> }]}
      actions={{
        heading: 'Ações',
        label: (client) => `Ações: ${client.url}`,
        edit: 'Editar cliente',
        remove: 'Deletar cliente',
      }}
      dialog={({ open, record, onClose }) => <ClientDialog open={open} client={record} onClose={onClose} />}
      deleteType="cliente"
      deleteTitle="Deletar cliente"
    />
  );
}
