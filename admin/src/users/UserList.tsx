import { Alert, Box, Chip } from '@mui/material';
import { useGetIdentity } from 'react-admin';
import type { UserFieldsFragment as User } from '../../../schema/generated/graphql';
import { canAccess } from '../access';
import { Truncated } from '../list/DataTable';
import { ListHeading, ListPage, ListScreen } from '../list/ListPage';
import { portuguesePagination } from '../list/Pagination';
import { UserDialog } from './UserDialog';

function Status({ active }: { active: boolean }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box
        component="span"
        aria-hidden
        sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: active ? 'success.main' : 'error.main' }}
      />
      {active ? 'Active' : 'Inactive'}
    </Box>
  );
}

/** /admin: Users Management, for superusers. */
export default function UserList() {
  const { identity, isPending: identityPending } = useGetIdentity();

  if (identityPending) return null;
  if (!canAccess(identity, 'admin')) {
    return (
      <ListScreen>
        <ListHeading title="Users Management" />
        <Alert severity="error">The user doesn't have enough privileges</Alert>
      </ListScreen>
    );
  }

  return (
    <ListPage<User>
      resource="admin"
      title="Users Management"
      addLabel="Add User"
      tableLabel="Users"
      empty="No users."
      paginationLabels={portuguesePagination}
      columns={[
        {
          label: 'Full name',
          render: (user) => (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Truncated text={user.full_name || 'N/A'} />
              {user.id === identity?.id && <Chip label="You" size="small" color="primary" />}
            </Box>
          ),
        },
        { label: 'Email', render: (user) => <Truncated text={user.email} /> },
        { label: 'Role', render: (user) => (user.is_superuser ? 'Superuser' : 'User') },
        { label: 'Status', render: (user) => <Status active={user.is_active} /> },
      ]}
      actions={{
        heading: 'Actions',
        label: (user) => `Actions: ${user.email}`,
        edit: 'Edit User',
        remove: 'Delete User',
        disabled: (user) => user.id === identity?.id,
      }}
      dialog={({ open, record, onClose }) => <UserDialog open={open} user={record} onClose={onClose} />}
      deleteType="usuário"
      deleteTitle="Delete User"
    />
  );
}
