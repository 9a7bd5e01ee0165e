import PeopleIcon from '@mui/icons-material/People';
import { listScreen } from '../crud/listScreen';

export default {
  list: listScreen('admin'),
  icon: PeopleIcon,
  recordRepresentation: 'email',
};
