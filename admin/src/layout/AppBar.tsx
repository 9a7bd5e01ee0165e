import PersonIcon from '@mui/icons-material/Person';
import { Typography, useMediaQuery, type Theme } from '@mui/material';
import { AppBar as RaAppBar, Logout, MenuItemLink, UserMenu, useUserMenu } from 'react-admin';

function ProfileItem() {
  const { onClose } = useUserMenu() ?? {};
  return <MenuItemLink to="/config" primaryText="Meu perfil" leftIcon={<PersonIcon />} onClick={onClose} />;
}

/** The top bar: the product's name and, on a desktop, the user menu. */
export function AppBar() {
  const isSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <RaAppBar
      color="primary"
      userMenu={
        isSmall ? (
          false
        ) : (
          <UserMenu>
            <ProfileItem />
            <Logout />
          </UserMenu>
        )
      }
    >
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
