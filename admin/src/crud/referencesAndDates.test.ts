import { describe, expect, it, vi } from 'vitest';
import { formInputs, updateData } from './formInputs';
import { instantOf } from './DerivedInput';

// The README's Note ("Adding a resource") as `npm run schema` describes it, beside the real resources.
vi.mock('../../../schema/generated/description', async (original) => {
  const real = await original<typeof import('../../../schema/generated/description')>();
  return {
    ...real,
    types: {
      ...real.types,
      Note: {
        fields: {
          id: { type: 'ID' },
          body: { type: 'String', listed: true, searchable: true },
          status: { type: 'NoteStatus', listed: true, filterable: true, values: ['open', 'closed'] },
          client_id: { type: 'ID', nullable: true, listed: true, filterable: true, references: 'Client' },
          remind_at: { type: 'DateTime', nullable: true, listed: true, sortable: true },
          due_on: { type: 'Date', nullable: true, listed: true },
        },
      },
    },
    resources: {
      ...real.resources,
      Note: { screen: 'notes', operations: ['list', 'get', 'create', 'update', 'delete'], read: 'user', title: 'body' },
    },
  };
});
vi.mock('../../../schema/generated/mutations', async (original) => {
  const real = await original<typeof import('../../../schema/generated/mutations')>();
  const args = {
    body: { type: 'String', list: false, sdl: 'String', required: false },
    client_id: { type: 'ID', list: false, sdl: 'ID', required: false },
    remind_at: { type: 'DateTime', list: false, sdl: 'DateTime', required: false },
    due_on: { type: 'Date', list: false, sdl: 'Date', required: false },
  };
  return {
    ...real,
    mutations: {
      ...real.mutations,
      createNote: { args: { ...args, body: { ...args.body, sdl: 'String!', required: true } }, returns: 'Note' },
      updateNote: { args: { id: { type: 'ID', list: false, sdl: 'ID!', required: true }, ...args }, returns: 'Note' },
    },
  };
});

describe("a resource's references and dates in its forms", () => {
  it('chooses a reference among the records of its target, and a moment or a day in their own inputs', () => {
    const inputs = Object.fromEntries(formInputs('notes', 'create').map((input) => [input.source, input]));
    expect(inputs.client_id).toMatchObject({ kind: 'reference', reference: 'clientes', required: false });
    expect(inputs.remind_at).toMatchObject({ kind: 'datetime' });
    expect(inputs.due_on).toMatchObject({ kind: 'date' });
    expect(formInputs('notes', 'edit').map((input) => input.kind)).toEqual(['text', 'reference', 'datetime', 'date']);
  });

  it("sends a date-and-time box's local value as the instant it is, and an edit only what changed", () => {
    const local = '2025-03-10T09:30';
    expect(instantOf(local)).toBe(new Date(2025, 2, 10, 9, 30).toISOString());
    expect(instantOf('')).toBeNull();
    const inputs = formInputs('notes', 'edit');
    const record = { id: 'n1', body: 'b', client_id: 'c1', remind_at: '2025-03-10T12:30:00.000Z', due_on: null };
    expect(updateData(inputs, { ...record, remind_at: '2025-03-10T12:30:00.000Z' }, record)).toEqual({});
    expect(updateData(inputs, { ...record, client_id: 'c2', due_on: '2025-03-11' }, record)).toEqual({
      client_id: 'c2',
      due_on: '2025-03-11',
    });
  });
});
