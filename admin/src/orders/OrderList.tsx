import { ActionPromptsContext } from '../crud/actionPrompts';
import type { ColumnCustomization } from '../crud/columns';
import { ResourceList } from '../crud/ResourceList';
import { RowGroupsContext } from '../crud/rowGroups';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import type { ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { OrderStateDetail, sentNumberOf } from './HiperCheck';
import { orderPrompts } from './prompts';
import { shipmentGroups } from './Shipments';

/**
 * The columns before the others, in the declaration's order: a shipment's number as Hiper has it ({number}-{k}), the
 * state (whose dialog line says what to check in Hiper), then where it ships from and its code in Hiper.
 */
const columns: (string | ColumnCustomization)[] = [
  'client_id',
  { source: 'number', text: (record) => sentNumberOf(record) },
  { source: 'state', dialog: (record) => <OrderStateDetail record={record} /> },
  'location_id',
  'hiper_code',
];

/**
 * The Pedidos screen as its declaration draws it, but for what staff must decide: an uncertain or rejected order's
 * dialog says what to look for in Hiper first, "Reenviar" on an uncertain one asks a confirmation naming the risk of a
 * duplicate, and "Já está no Hiper" asks for Hiper's id of the sales order. An order of a store with several
 * locations shows its shipments together under its number, each with its own actions.
 */
export default function OrderList({ resource }: { resource: ResourceName }) {
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ActionPromptsContext.Provider value={orderPrompts}>
        <RowGroupsContext.Provider value={shipmentGroups}>
          <ResourceList resource={resource} columns={columns} representation={sentNumberOf} />
        </RowGroupsContext.Provider>
      </ActionPromptsContext.Provider>
    </ScreenLanguage>
  );
}
