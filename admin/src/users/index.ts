import PeopleIcon from '@mui/icons-material/People';
import { lazy } from 'react';

export default {
  list: lazy(() => import('./UserList')),
  icon: PeopleIcon,
  recordRepresentation: 'email',
};
