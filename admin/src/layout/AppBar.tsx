import AccountCircle from '@mui/icons-material/AccountCircle';
import PersonIcon from '@mui/icons-material/Person';
import { Button, Menu, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useCallback, useMemo, useState } from 'react';
import {
  AppBar as RaAppBar,
  Logout,
  MenuItemLink,
  useGetIdentity,
  UserMenuContextProvider,
  useUserMenu,
} from 'react-admin';

function ProfileItem() {
  const { onClose } = useUserMenu() ?? {};
  return <MenuItemLink to="/config" primaryText="Meu perfil" leftIcon={<PersonIcon />} onClick={onClose} />;
}

/**
 * The user menu (react-admin's UserMenu, as a desktop draws it): a button showing who is signed in, named by those
 * same words so that one can say what one sees (WCAG 2.5.3; react-admin's is named 'Profile'), and telling that it
 * opens a menu.
 */
function AccountMenu() {
  const { identity } = useGetIdentity();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const onClose = useCallback(() => setAnchor(null), []);
  const context = useMemo(() => ({ onClose }), [onClose]);
  if (!identity?.fullName) return null;
  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountCircle />}
        aria-haspopup="menu"
        aria-controls={anchor ? 'menu-appbar' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {identity.fullName}
      </Button>
      <UserMenuContextProvider value={context}>
        <Menu
          id="menu-appbar"
          disableScrollLock
          anchorEl={anchor}
          open={!!anchor}
          onClose={onClose}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <ProfileItem />
          <Logout />
        </Menu>
      </UserMenuContextProvider>
    </>
  );
}

/** The top bar: the product's name and, on a desktop, the user menu. */
export function AppBar() {
  const isSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <RaAppBar color="primary" userMenu={isSmall ? false : <AccountMenu />}>
      <Typography
        variant="h6"
        component="span"
        sx={{ flex: 1, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
      >
        Sistema de Integração
      </Typography>
    </RaAppBar>
  );
}
