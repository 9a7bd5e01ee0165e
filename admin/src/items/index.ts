import ListIcon from '@mui/icons-material/List';
import { lazy } from 'react';

/** The list screen's code, fetched when first shown (or earlier, by preloadSession). */
export const loadList = () => import('./ItemList');

export default {
  list: lazy(loadList),
  icon: ListIcon,
  recordRepresentation: 'title',
};
