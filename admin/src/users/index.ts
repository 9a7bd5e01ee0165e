import PeopleIcon from '@mui/icons-material/People';
import { lazy } from 'react';
import { listScreens } from '../lists';

export default {
  list: lazy(listScreens.admin),
  icon: PeopleIcon,
  recordRepresentation: 'email',
};
