import PersonIcon from '@mui/icons-material/Person';
import { Typography, useMediaQuery, type Theme } from '@mui/material';
import { AppBar as RaAppBar, Logout, MenuItemLink, useGetIdentity, UserMenu, useUserMenu } from 'react-admin';

function ProfileItem() {
  const { onClose } = useUserMenu() ?? {};
  return <MenuItemLink to="/config" primaryText="Meu perfil" leftIcon={<PersonIcon />} onClick={onClose} />;
}

/** The top bar: the product's name and, on a desktop, the user menu. */
export function AppBar() {
  const isSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // The user menu's button shows who is signed in, and is named by those same words, so that one can say what one
  // sees (WCAG 2.5.3): react-admin names it 'Profile'.
  const { identity } = useGetIdentity();
  return (
    <RaAppBar
      color="primary"
      userMenu={
        isSmall ? (
          false
        ) : (
          <UserMenu label={identity?.fullName}>
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
