import BusinessIcon from '@mui/icons-material/Business';
import { lazy } from 'react';

/** The list screen's code, fetched when first shown (or earlier, by preloadSession). */
export const loadList = () => import('./ClientList');

export default {
  list: lazy(loadList),
  icon: BusinessIcon,
  recordRepresentation: 'url',
};
