import ListIcon from '@mui/icons-material/List';
import { lazy } from 'react';
import { listScreens } from '../lists';

export default {
  list: lazy(listScreens.items),
  icon: ListIcon,
  recordRepresentation: 'title',
};
