import ListIcon from '@mui/icons-material/List';
import { lazy } from 'react';

export default {
  list: lazy(() => import('./ItemList')),
  icon: ListIcon,
  recordRepresentation: 'title',
};
