import BusinessIcon from '@mui/icons-material/Business';
import { listScreen } from '../crud/listScreen';

export default {
  list: listScreen('clientes'),
  icon: BusinessIcon,
  recordRepresentation: 'url',
};
