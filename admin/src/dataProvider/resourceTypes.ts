import { resources } from '../../../schema/generated/description';
import { fieldsOf, type TypeName } from '../crud/description';

type Declared = typeof resources;

/** react-admin's resource names: each screen's path, as the gateway's declarations name them (`@resource`). */
export type ResourceName = Declared[keyof Declared]['screen'];

export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

/** An action on one record beyond edit and delete: the mutation it calls with the record's id, and its labels' key. */
export interface RecordActionDeclaration {
  name: string;
  mutation: string;
  /** The fields a record must have set for it to work (a client's credentials and store). */
  needs?: readonly string[];
  /** A state field and its values in which it is not offered (a client not connected). */
  unavailable?: { field: string; values: readonly string[] };
  /** A state field and the only values in which it is offered (an order's "Reenviar": held, rejected, uncertain). */
  only?: { field: string; values: readonly string[] };
  /** Asked for a confirmation first, in `actions.<name>.confirm` (an archived client's purge: it cannot be undone). */
  confirm?: boolean;
}

/** Whether a record's field holds nothing: unset, empty, or a store id of 0. */
const unset = (value: unknown) => value == null || value === '' || value === 0;

/** The fields an action needs that the record lacks, in the declaration's order. */
export const missingFor = (action: RecordActionDeclaration, record: Record<string, unknown>): string[] =>
  (action.needs ?? []).filter((field) => unset(record[field]));

/**
 * Whether the action is offered for the record: in one of the only states it applies to (when it names them), not in
 * a state it is unavailable in, nor lacking what it needs. Where it is not offered, the server would answer 409.
 */
export const isOffered = (action: RecordActionDeclaration, record: Record<string, unknown>): boolean =>
  (!action.only || action.only.values.includes(String(record[action.only.field]))) &&
  !action.unavailable?.values.includes(String(record[action.unavailable.field])) &&
  !missingFor(action, record).length;

/** What the schema says of a resource the admin shows (its `@resource` directive), and its GraphQL type. */
export interface ScreenDeclaration {
  type: TypeName;
  screen: ResourceName;
  operations: readonly Operation[];
  read: 'user' | 'superuser';
  /** The field that names a record. */
  title?: string;
  /** The field shown beside the title, and in its place when it is empty. */
  subtitle?: string;
  /** Its place in the sidebar (none when absent or 0). */
  menu?: number;
  icon?: string;
  /** Its record actions (`actions.<name>` in its labels), in the row menu and the edit dialog. */
  actions?: readonly RecordActionDeclaration[];
}

/** Every resource's screen, in sidebar order: the one registry the menu, the routes and the data provider read. */
export const declarations: readonly ScreenDeclaration[] = Object.entries(resources).map(
  ([type, declared]) => ({ type, ...declared }) as ScreenDeclaration,
);

const byScreen = new Map<string, ScreenDeclaration>(declarations.map((d) => [d.screen, d]));

export const isResourceName = (name: string): name is ResourceName => byScreen.has(name);

export function declarationOf(resource: string): ScreenDeclaration {
  const found = byScreen.get(resource);
  if (!found) throw new Error(`Unknown resource ${resource}`);
  return found;
}

/**
 * A record as people name it, wherever it is named (lists, filters, links, toasts, confirmations): its title, its
 * subtitle beside it (`Loja da Maria (https://loja.example)`), either alone when the other is empty (its id when it
 * declares neither).
 */
export function recordTitle(resource: string, record: { id: unknown; [field: string]: unknown }): string {
  const { title, subtitle } = declarationOf(resource);
  const text = (field: string | undefined) => (field && record[field] != null ? String(record[field]) : '');
  const [main, beside] = [text(title ?? 'id'), text(subtitle)];
  return main && beside ? `${main} (${beside})` : main || beside;
}

export const typeOfResource = (resource: string): TypeName => declarationOf(resource).type;

/** Whether the resource offers an operation (a history offers only list and get). */
export const offers = (resource: string, operation: Operation): boolean =>
  declarationOf(resource).operations.includes(operation);

/** The screen of the resource a type names, if the admin shows it. */
export const screenOfType = (type: string): ResourceName | undefined =>
  declarations.find((d) => d.type === type)?.screen;

/**
 * The lists that can show a record's own rows: every resource everyone may read with a filterable reference to the
 * record's type (a client's webhooks), and the field it filters by.
 */
export const listsReferencing = (resource: string): { screen: ResourceName; source: string }[] => {
  const type = typeOfResource(resource);
  return declarations.flatMap((d) =>
    d.read !== 'user'
      ? []
      : Object.entries(fieldsOf(d.type))
          .filter(([, field]) => field.references === type && field.filterable)
          .map(([source]) => ({ screen: d.screen, source })),
  );
};
