import type { ComponentType } from 'react';
import type { ResourceName } from './dataProvider/resourceTypes';

/** A list screen's module: its default export gets the resource's name. */
export type ScreenModule = { default: ComponentType<{ resource: ResourceName }> };

/**
 * The screens written by hand, by resource: every resource not named here is shown by the screen its declaration
 * derives (crud/DeclaredList.tsx). A screen's file name ends in `List.tsx` (the build preloads those).
 */
export const customScreens: Partial<Record<ResourceName, () => Promise<ScreenModule>>> = {
  saude: () => import('./health/HealthList'),
  auditoria: () => import('./audit/AuditList'),
  admin: () => import('./users/UserList'),
  sincronizacoes: () => import('./syncRuns/SyncRunList'),
  pedidos: () => import('./orders/OrderList'),
  estoques: () => import('./locations/LocationList'),
  'produtos-vinculados': () => import('./productLinks/ProductLinkList'),
};
