import DashboardIcon from '@mui/icons-material/Dashboard';
import LogoutIcon from '@mui/icons-material/PowerSettingsNew';
import SettingsIcon from '@mui/icons-material/Settings';
import { Box, Divider, Typography } from '@mui/material';
import { type ReactElement } from 'react';
import { Logout, Menu as RaMenu, useGetIdentity, useSidebarState, useTranslate } from 'react-admin';
import { declarations } from '../dataProvider/resourceTypes';
import { iconNamed } from './icons';
import { useAllLabels } from './afterRows';
import { AfterFirstPaint } from './firstPaint';
import { useAccess } from './useAccess';

/** A menu entry for a resource's list, shown only to whom may open it. */
function ResourceEntry({ resource, icon }: { resource: string; icon: ReactElement }) {
  const translate = useTranslate();
  const { canAccess } = useAccess(resource, 'list');
  if (!canAccess) return null;
  return (
    <RaMenu.Item
      to={`/${resource}`}
      primaryText={translate(`resources.${resource}.menu`, { _: resource })}
      leftIcon={icon}
    />
  );
}

/** The settings page's place in the sidebar, among the resources' (their declarations' `menu`). */
const SETTINGS_PLACE = 30;

/** The resources' entries, in their declared order, with the settings page among them. */
function entries(settings: ReactElement): ReactElement[] {
  const shown = declarations.filter((d) => d.menu);
  const resource = (d: (typeof shown)[number]) => {
    const Icon = iconNamed(d.icon);
    return <ResourceEntry key={d.screen} resource={d.screen} icon={<Icon />} />;
  };
  return [
    ...shown.filter((d) => d.menu! < SETTINGS_PLACE).map(resource),
    settings,
    ...shown.filter((d) => d.menu! >= SETTINGS_PLACE).map(resource),
  ];
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
/** The entries, once every resource's texts have arrived (asked for once the first screen is painted). */
function Entries() {
  if (!useAllLabels()) return null;
  return (
    <RaMenu>
      <RaMenu.Item to="/" primaryText="Dashboard" leftIcon={<DashboardIcon />} />
      {entries(<RaMenu.Item key="config" to="/config" primaryText="Configurações" leftIcon={<SettingsIcon />} />)}
      <Logout icon={<LogoutIcon />} sx={entryLike} />
    </RaMenu>
  );
}

export function Menu() {
  const { identity } = useGetIdentity();
  const [open] = useSidebarState();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <AfterFirstPaint>
        <Entries />
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
