import ListIcon from '@mui/icons-material/List';
import { listScreen } from '../crud/listScreen';

export default {
  list: listScreen('items'),
  icon: ListIcon,
  recordRepresentation: 'title',
};
