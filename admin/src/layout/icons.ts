import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import ArchiveIcon from '@mui/icons-material/Archive';
import BusinessIcon from '@mui/icons-material/Business';
import InventoryIcon from '@mui/icons-material/Inventory2';
import ListIcon from '@mui/icons-material/List';
import MailIcon from '@mui/icons-material/MailOutline';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import HistoryIcon from '@mui/icons-material/History';
import type { SvgIconComponent } from '@mui/icons-material';

/** The icons a declaration may name (`icon`), for its sidebar entry; any other name gets a list's. */
const icons: Record<string, SvgIconComponent> = {
  Business: BusinessIcon,
  Inventory: InventoryIcon,
  People: AdminPanelSettingsIcon,
  Mail: MailIcon,
  List: ListIcon,
  Archive: ArchiveIcon,
  MonitorHeart: MonitorHeartIcon,
  History: HistoryIcon,
};

export const iconNamed = (name: string | undefined): SvgIconComponent =>
  (name && Object.hasOwn(icons, name) ? icons[name] : undefined) ?? ListIcon;
