import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import BusinessIcon from '@mui/icons-material/Business';
import DashboardIcon from '@mui/icons-material/Dashboard';
import SettingsIcon from '@mui/icons-material/Settings';
import { Box, Divider, Typography } from '@mui/material';
import { Logout, Menu as RaMenu, useGetIdentity, useSidebarState } from 'react-admin';
import { canAccess } from '../access';

/** The sidebar (a drawer at phone width): the screens, who is signed in, and Logout. */
export function Menu() {
  const { identity } = useGetIdentity();
  const [open] = useSidebarState();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <RaMenu>
        <RaMenu.Item to="/" primaryText="Dashboard" leftIcon={<DashboardIcon />} />
        <RaMenu.Item to="/clientes" primaryText="Clientes" leftIcon={<BusinessIcon />} />
        <RaMenu.Item to="/config" primaryText="Configurações" leftIcon={<SettingsIcon />} />
        {canAccess(identity, 'admin') && (
          <RaMenu.Item to="/admin" primaryText="Admin" leftIcon={<AdminPanelSettingsIcon />} />
        )}
        <Logout />
      </RaMenu>
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
