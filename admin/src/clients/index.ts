import BusinessIcon from '@mui/icons-material/Business';
import { lazy } from 'react';
import { listScreens } from '../lists';

export default {
  list: lazy(listScreens.clientes),
  icon: BusinessIcon,
  recordRepresentation: 'url',
};
