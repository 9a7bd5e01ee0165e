import { buildSchema, lexicographicSortSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '../../gateway/kit/resource';
import { printedSchema } from '../../gateway/emit-schema';
import { declaredResources } from '../../gateway/resources';
import { types } from '../../schema/generated/description';
import { plugin as describeSchema } from '../../schema/codegen/describe.mjs';

/** An order's lifecycle, as its declaration lists it: what every list of its states shows, in this order. */
const LIFECYCLE = [
  'received',
  'held',
  'sending',
  'sent',
  'processed',
  'rejected',
  'invoiced',
  'shipped',
  'cancelled',
  'uncertain',
];

type Tones = Readonly<Record<string, string>>;
type Described = Record<
  string,
  {
    fields: Record<
      string,
      { type: string; values?: readonly string[]; tones?: Tones; items?: readonly DescribedItem[] }
    >;
  }
>;
type DescribedItem = { name: string; kind: string; tones?: Tones };
const committed: Described = types;

let resources: Resource[];
let sdl: string;
beforeAll(async () => {
  resources = declaredResources();
  sdl = await printedSchema();
});

/** Every state field of every resource: its type, its name, its GraphQL enum and its declared values. */
const states = () =>
  resources.flatMap((resource) =>
    Object.entries(resource.fields).flatMap(([name, field]) =>
      field.kind === 'state'
        ? [
            {
              type: resource.name,
              name,
              enumName: `${resource.name}${name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`,
              values: [...(field.values ?? [])],
              tones: field.tones ?? {},
            },
          ]
        : [],
    ),
  );

/** The values of `enum <name>` in an SDL text, in the order written. */
const enumValues = (text: string, name: string) =>
  [...(new RegExp(`^enum ${name} \\{\\n([^}]*)\\}`, 'm').exec(text)?.[1] ?? '').matchAll(/^ {2}(\w+)/gm)].map(
    (match) => match[1],
  );

describe('a state’s values keep their declared order', () => {
  it('in the declaration: an order’s lifecycle', () => {
    const order = states().find((state) => state.type === 'Order' && state.name === 'state');
    expect(order?.values).toEqual(LIFECYCLE);
    expect(states().length).toBeGreaterThan(5);
  });

  it('in GraphQL: each enum lists its values as declared', () => {
    for (const state of states()) expect(enumValues(sdl, state.enumName), state.enumName).toEqual(state.values);
  });

  it('in the description the admin reads, though codegen hands its plugin a sorted schema', () => {
    const sorted = lexicographicSortSchema(buildSchema(sdl));
    const written = describeSchema(sorted);
    const described = JSON.parse(/export const types = (\{[\s\S]*?\n\}) as const;/.exec(written)![1]) as Described;
    for (const state of states()) {
      expect(described[state.type].fields[state.name].values, `${state.type}.${state.name}`).toEqual(state.values);
      // The committed description is that same text (generated.test.ts says when it is stale).
      expect(committed[state.type].fields[state.name].values).toEqual(state.values);
    }
    expect(described.Order.fields.state.values).toEqual(LIFECYCLE);
  });
});

describe('a state’s tones, declared beside its values', () => {
  /** What the admin is told of a state's tones: every value's but the neutral ones (a value not named is neutral). */
  const told = (tones: Tones) => Object.fromEntries(Object.entries(tones).filter(([, tone]) => tone !== 'neutral'));

  it('are declared for every state field of every resource', () => {
    for (const state of states()) expect(Object.keys(state.tones), `${state.type}.${state.name}`).toEqual(state.values);
  });

  it('reach the description the admin colours its chips from, the history’s states too', () => {
    for (const state of states()) {
      const described = committed[state.type].fields[state.name].tones ?? {};
      expect(described, `${state.type}.${state.name}`).toEqual(told(state.tones));
      // In the values' declared order, as the declaration lists them.
      expect(Object.keys(described)).toEqual(state.values.filter((value) => value in described));
    }
    expect(committed.Order.fields.state.tones).toMatchObject({ held: 'warning', rejected: 'error', sent: 'success' });
    const history = committed.Order.fields.history.items?.find((item) => item.kind === 'state');
    expect(history?.tones).toEqual(committed.Order.fields.state.tones);
  });

  it('are in the SDL as `@tones`, each value under its tone', () => {
    expect(sdl).toMatch(/^ {2}state: OrderState! @listed @filterable @tones\(neutral: \["received", "cancelled"\], /m);
  });
});
