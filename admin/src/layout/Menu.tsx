import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import BusinessIcon from '@mui/icons-material/Business';
import DashboardIcon from '@mui/icons-material/Dashboard';
import InventoryIcon from '@mui/icons-material/Inventory2';
import LogoutIcon from '@mui/icons-material/PowerSettingsNew';
import SettingsIcon from '@mui/icons-material/Settings';
import { Box, Divider, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import { Logout, Menu as RaMenu, useGetIdentity, useSidebarState } from 'react-admin';
import { AfterFirstPaint } from './firstPaint';
import { useAccess } from './useAccess';

/** A menu entry for a resource's list, shown only to whom may open it. */
function ResourceEntry({ resource, label, icon }: { resource: string; label: string; icon: ReactElement }) {
  const { canAccess } = useAccess(resource, 'list');
  if (!canAccess) return null;
  return <RaMenu.Item to={`/${resource}`} primaryText={label} leftIcon={icon} />;
}

/**
 * Logout drawn as the entries above it are (react-admin's MenuItemLink): its icon full size in a 40 px column, its text
 * in their colour and line height. react-admin's Logout has a smaller icon in a narrower column, so neither its icon nor
 * its text lined up with theirs.
 */
const entryLike = {
  color: 'text.secondary',
  '& .RaLogout-icon': { minWidth: 40, color: 'text.secondary' },
  '& .MuiListItemText-root': { my: 0 },
} as const;

/**
 * The sidebar (a drawer at phone width): the screens, who is signed in, and Logout. Its entries come once the first
 * screen has been painted (firstPaint.tsx): the sidebar's width is fixed, so nothing beside it moves.
 */
export function Menu() {
  const { identity } = useGetIdentity();
  const [open] = useSidebarState();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <AfterFirstPaint>
        <RaMenu>
          <RaMenu.Item to="/" primaryText="Dashboard" leftIcon={<DashboardIcon />} />
          <ResourceEntry resource="clientes" label="Clientes" icon={<BusinessIcon />} />
          <ResourceEntry resource="items" label="Itens" icon={<InventoryIcon />} />
          <RaMenu.Item to="/config" primaryText="Configurações" leftIcon={<SettingsIcon />} />
          <ResourceEntry resource="admin" label="Admin" icon={<AdminPanelSettingsIcon />} />
          <Logout icon={<LogoutIcon />} sx={entryLike} />
        </RaMenu>
      </AfterFirstPaint>
      {open && identity?.email && (
        <Box sx={{ mt: 'auto', px: 2, py: 1.5, width: 240, boxSizing: 'border-box' }}>
          <Divider sx={{ mb: 1 }} />
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', wordBreak: 'break-word' }}>
            Logado como: {identity.email}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
