import { ActionPromptsContext } from '../crud/actionPrompts';
import type { ColumnCustomization } from '../crud/columns';
import { ResourceList } from '../crud/ResourceList';
import { ScreenLanguage } from '../crud/ScreenLanguage';
import type { ResourceName } from '../dataProvider/resourceTypes';
import { portugueseI18nProvider } from '../i18n';
import { OrderStateDetail, sentNumberOf } from './HiperCheck';
import { orderPrompts } from './prompts';

/** The columns before the state, in the declaration's order; the state's dialog line says what to check in Hiper. */
const columns: (string | ColumnCustomization)[] = [
  'client_id',
  'number',
  { source: 'state', dialog: (record) => <OrderStateDetail record={record} /> },
];

/**
 * The Pedidos screen as its declaration draws it, but for what staff must decide: an uncertain or rejected order's
 * dialog says what to look for in Hiper first, "Reenviar" on an uncertain one asks a confirmation naming the risk of a
 * duplicate, and "Já está no Hiper" asks for Hiper's id of the sales order.
 */
export default function OrderList({ resource }: { resource: ResourceName }) {
  return (
    <ScreenLanguage i18nProvider={portugueseI18nProvider}>
      <ActionPromptsContext.Provider value={orderPrompts}>
        <ResourceList resource={resource} columns={columns} representation={sentNumberOf} />
      </ActionPromptsContext.Provider>
    </ScreenLanguage>
  );
}
