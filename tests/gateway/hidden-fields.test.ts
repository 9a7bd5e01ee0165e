import { randomUUID } from 'node:crypto';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datetime, id, int, text } from '../../gateway/kit/field';
import { Resource } from '../../gateway/kit/resource';
import { resolverOf } from '../../gateway/graphql/resource-resolver';
import { graphqlSchema } from '../../gateway/graphql/schema';
import { resolvers } from '../../gateway/resolvers';
import { plugin as describeSchema } from '../../schema/codegen/describe.mjs';
import { startTestGatewayAsSuperuser, type TestGateway } from '../support/gateway';

/**
 * A field declared `hidden` (internal bookkeeping: an order's search text, its send's lease, Hiper's event cursor) is
 * marked @hidden in the schema, so the admin shows it on no screen; the API answers it and searches by it as before.
 */

/** The SDL line of a type's field. */
function lineOf(printed: string, type: string, field: string): string {
  const body = new RegExp(`\\ntype ${type} [^\\n]*\\{\\n([\\s\\S]*?)\\n\\}`).exec(printed)?.[1] ?? '';
  const line = body.split('\n').find((l) => l.trimStart().startsWith(`${field}:`));
  if (!line) throw new Error(`no ${type}.${field} in the schema`);
  return line;
}

describe('the @hidden hint', () => {
  it('is emitted for a field declared hidden, and for no other', async () => {
    const note = new Resource(
      'HiddenNote',
      {
        id: id(),
        body: text({ max: 200, listed: true, searchable: true }),
        search_key: text({ nullable: true, readOnly: true, searchable: true, hidden: true }),
        leased_at: datetime({ nullable: true, readOnly: true, hidden: true }),
        seen: int({ min: 0, max: 10, default: 0, readOnly: true }),
      },
      { operations: ['list', 'get'], menu: 0 },
    );
    const printed = printSchemaWithDirectives(graphqlSchema([resolverOf(note)]));
    expect(printed).toMatch(/directive @hidden on FIELD_DEFINITION/);
    expect(lineOf(printed, 'HiddenNote', 'search_key')).toMatch(/@hidden/);
    expect(lineOf(printed, 'HiddenNote', 'search_key')).toMatch(/@searchable/);
    expect(lineOf(printed, 'HiddenNote', 'leased_at')).toMatch(/@hidden/);
    for (const field of ['id', 'body', 'seen']) expect(lineOf(printed, 'HiddenNote', field)).not.toMatch(/@hidden/);
  });

  it('is refused on a field a person could set, or a list could show, sort or filter by', () => {
    const declare = (options: Parameters<typeof text>[0]) =>
      new Resource('HiddenWrong', { id: id(), key: text({ nullable: true, max: 20, hidden: true, ...options }) });
    const refusal = 'HiddenWrong.key: a hidden field must be readOnly, and not listed, sortable or filterable';
    expect(() => declare({})).toThrow(refusal);
    for (const option of ['listed', 'sortable', 'filterable'] as const)
      expect(() => declare({ readOnly: true, [option]: true })).toThrow(refusal);
    expect(() => declare({ readOnly: true, searchable: true })).not.toThrow();
  });

  it("marks the order's and the webhook's bookkeeping, in the schema and the admin's description", async () => {
    const schema = graphqlSchema(resolvers());
    const printed = printSchemaWithDirectives(schema);
    const hidden = {
      Order: [
        'search_text',
        'sending_since',
        'hiper_events_seen',
        'refused_digest',
        'status_read_at',
        'fulfil_refused_at',
        'cancel_requested_at',
      ],
      WebhookEvent: ['delivery_key'],
      ClientHealth: ['severity'],
    };
    const shown = {
      Order: ['number', 'customer_name', 'state', 'hold_reason', 'received_at', 'placed_at', 'store_status'],
      WebhookEvent: ['event', 'webhook_id', 'note'],
      Client: ['url', 'hiper_token', 'sync_state', 'installed_at', 'redacted_at'],
    };
    for (const [type, fields] of Object.entries(hidden))
      for (const field of fields) expect(lineOf(printed, type, field), `${type}.${field}`).toMatch(/@hidden/);
    for (const [type, fields] of Object.entries(shown))
      for (const field of fields) expect(lineOf(printed, type, field), `${type}.${field}`).not.toMatch(/@hidden/);

    // What the admin reads (schema/generated/description.ts): `hidden` on those fields alone.
    const described = describeSchema(schema) as string;
    const types = JSON.parse(/export const types = ([\s\S]*?) as const;/.exec(described)![1]) as Record<
      string,
      { fields: Record<string, { hidden?: boolean }> }
    >;
    const marked = Object.entries(types).flatMap(([type, { fields }]) =>
      Object.entries(fields)
        .filter(([, field]) => field.hidden)
        .map(([name]) => `${type}.${name}`),
    );
    expect(marked.sort()).toEqual(
      [
        'Order.hiper_events_seen',
        'Order.search_text',
        'Order.sending_since',
        'Order.refused_digest',
        'Order.status_read_at',
        'Order.fulfil_refused_at',
        'Order.cancel_requested_at',
        'ClientHealth.severity',
        'WebhookEvent.delivery_key',
      ].sort(),
    );
  });
});

describe('a hidden field through the API', () => {
  let t: TestGateway;
  let su: string;
  const orderId = randomUUID();

  beforeAll(async () => {
    ({ t, su } = await startTestGatewayAsSuperuser());
    const client = await t.request('POST', '/api/v1/clients/', { token: su, json: { url: 'https://hidden.example' } });
    expect(client.status).toBe(200);
    await t.sql(
      `insert into orders (id, client_id, nuvemshop_order_id, number, state, customer_name, lines, history,
         received_at, updated_at, search_text, sending_since, hiper_events_seen)
       values ($1, $2, 987654, 4321, 'sending', 'Ana Souza', '[]', '[]', now(), now(), '4321 ana souza sku-hidden-77',
         '2026-11-27T13:06:00Z', 5)`,
      [orderId, client.body.id],
    );
  });
  afterAll(() => t?.close());

  it('is answered by REST and GraphQL as before, and `q` still searches it', async () => {
    const rest = await t.request('GET', `/api/v1/orders/${orderId}`, { token: su });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      number: 4321,
      search_text: '4321 ana souza sku-hidden-77',
      sending_since: '2026-11-27T13:06:00.000Z',
      hiper_events_seen: 5,
    });

    const answer = await t.graphql(
      'query ($id: ID!) { Order(id: $id) { number search_text sending_since hiper_events_seen } }',
      { id: orderId },
      su,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.Order).toEqual({
      number: 4321,
      search_text: '4321 ana souza sku-hidden-77',
      sending_since: '2026-11-27T13:06:00.000Z',
      hiper_events_seen: 5,
    });

    // Only the search text holds the SKU: found by it through both doors.
    const found = await t.request('GET', '/api/v1/orders/?q=sku-hidden-77', { token: su });
    expect(found.body).toMatchObject({ count: 1, data: [{ id: orderId }] });
    const searched = await t.graphql('{ allOrders(filter: { q: "sku-hidden-77" }) { id } }', {}, su);
    expect(searched.body.data.allOrders).toEqual([{ id: orderId }]);
  });
});
