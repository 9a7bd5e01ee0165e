import { lazy, type ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import type { ResourceName } from './dataProvider/resourceTypes';

/**
 * What a record's dialog shows under its inputs, by resource, its code loaded when a dialog first shows it: a
 * client's last 30 days in charts.
 */
export const recordPanels: Partial<Record<ResourceName, ComponentType<{ record: RaRecord }>>> = {
  clientes: lazy(() => import('./dashboard/ActivityCharts').then((module) => ({ default: module.ClientActivity }))),
};
