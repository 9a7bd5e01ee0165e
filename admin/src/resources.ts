import type { RaRecord } from 'react-admin';
import { listScreen } from './crud/listScreen';
import { declarations, recordTitle } from './dataProvider/resourceTypes';
import { iconNamed } from './layout/icons';
import { recordPanels } from './lists';

/**
 * The screens backed by a gateway resource, under the name react-admin and the data provider know each by (also
 * its path), in menu order: `default` is the resource's definition, derived from its declaration; its `options` say
 * what its record's dialog shows under the inputs (`recordPanel`, lists.ts).
 */
export const resources = Object.fromEntries(
  declarations.map((d) => [
    d.screen,
    {
      default: {
        list: listScreen(d.screen),
        icon: iconNamed(d.icon),
        recordRepresentation: (record: RaRecord) => recordTitle(d.screen, record),
        options: { recordPanel: recordPanels[d.screen] },
      },
    },
  ]),
);
