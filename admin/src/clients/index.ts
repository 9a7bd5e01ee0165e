import BusinessIcon from '@mui/icons-material/Business';
import { lazy } from 'react';

export default {
  list: lazy(() => import('./ClientList')),
  icon: BusinessIcon,
  recordRepresentation: 'url',
};
