import { datetime, id, text, url } from '../kit/field';
import { Resource } from '../kit/resource';

/**
 * The clients staff deleted (archived: their history kept), as superusers review them: each restored to Clientes, or
 * purged with its history after a confirmation. Read over the clients' own table; the actions are the client's.
 */
export const archivedClientResource = new Resource(
  'ArchivedClient',
  {
    id: id(),
    url: url({ listed: true, sortable: true, searchable: true }),
    name: text({ nullable: true, listed: true, description: 'The store’s name' }),
    archived_at: datetime({ listed: true, sortable: true, description: 'When the client was deleted' }),
  },
  {
    source: `select id, url, name, archived_at, created_at from clients where archived_at is not null`,
    path: 'archived-clients',
    screen: 'clientes-arquivados',
    noun: 'archived client',
    read: 'superuser',
    write: 'superuser',
    title: 'url',
    menu: 11,
    icon: 'Archive',
    actions: [
      { name: 'restore', mutation: 'restoreClient' },
      { name: 'purge', mutation: 'purgeClient', confirm: true },
    ],
    description: 'A deleted client, kept with its orders and runs until a superuser restores or purges it',
  },
);
