import PeopleIcon from '@mui/icons-material/People';
import { lazy } from 'react';

/** The list screen's code, fetched when first shown (or earlier, by preloadSession). */
export const loadList = () => import('./UserList');

export default {
  list: lazy(loadList),
  icon: PeopleIcon,
  recordRepresentation: 'email',
};
