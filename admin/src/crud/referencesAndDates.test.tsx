import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import DeclaredList from './DeclaredList';
import { formInputs, updateData } from './formInputs';
import { instantOf } from './DerivedInput';
import { answerError } from '../api';

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

/** The data layer of two resources: notes, and the clients they name. */
function notesAndClients() {
  const clients = memoryProvider(
    [
      { id: 'c1', url: 'https://loja-azul.example' },
      { id: 'c2', url: 'https://loja-verde.example' },
    ],
    { search: ['url'] },
  );
  const notes = memoryProvider([]);
  const of = (resource: string) => (resource === 'clientes' ? clients : notes);
  const provider = {
    notes,
    getList: (resource: string, params: never) => of(resource).getList(resource, params),
    getOne: (resource: string, params: never) => of(resource).getOne(resource, params),
    getMany: async (resource: string, { ids }: { ids: string[] }) => ({
      data: of(resource)
        .rows()
        .filter((row) => ids.includes(row.id)),
    }),
    create: (resource: string, params: never) => of(resource).create(resource, params),
    update: (resource: string, params: never) => of(resource).update(resource, params),
  };
  return provider;
}

describe("a new resource's dialog", () => {
  it('sets the client with an autocomplete of addresses and the reminder in a date-and-time box, then shows both', async () => {
    const person = userEvent.setup();
    const provider = notesAndClients();
    renderWithAdmin(<DeclaredList resource={'notes' as never} />, { path: '/notes', dataProvider: provider });
    // No labels written yet: the texts are words made from the keys.
    await person.click(await screen.findByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    await person.type(within(dialog).getByLabelText(/^Body/), 'Call the store');
    const client = within(dialog).getByRole('combobox', { name: 'Client id' });
    await person.type(client, 'verde');
    await person.click(await screen.findByRole('option', { name: 'https://loja-verde.example' }));
    fireEvent.change(within(dialog).getByLabelText('Remind at'), { target: { value: '2025-03-10T09:30' } });
    fireEvent.change(within(dialog).getByLabelText('Due on'), { target: { value: '2025-03-11' } });
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Save' }).closest('form')!);
    await waitFor(() =>
      expect(provider.notes.create).toHaveBeenCalledWith(
        'notes',
        expect.objectContaining({
          data: expect.objectContaining({
            body: 'Call the store',
            client_id: 'c2',
            remind_at: new Date(2025, 2, 10, 9, 30).toISOString(),
            due_on: '2025-03-11',
          }),
        }),
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The row links to the client (named by its title where the app registers the screens: tests/e2e/references)
    // and reads the reminder as a moment of this screen's language.
    await waitFor(() => expect(document.querySelector('a[href*="/clientes"]')).not.toBeNull());
    expect(screen.getByText('10/03/2025 09:30')).toBeInTheDocument();
    expect(screen.getByText('11/03/2025')).toBeInTheDocument();
  });

  it('refuses a year of five digits or a day that does not exist on the field, in Portuguese, sending nothing', async () => {
    const person = userEvent.setup();
    const provider = notesAndClients();
    renderWithAdmin(<DeclaredList resource={'notes' as never} />, { path: '/notes', dataProvider: provider });
    await person.click(await screen.findByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    await person.type(within(dialog).getByLabelText(/^Body/), 'Call the store');
    fireEvent.change(within(dialog).getByLabelText('Due on'), { target: { value: '20261-03-20' } });
    fireEvent.change(within(dialog).getByLabelText('Remind at'), { target: { value: '20261-03-10T09:30' } });
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Save' }).closest('form')!);
    const message = 'Informe uma data real, com o ano em quatro dígitos (dd/mm/aaaa)';
    await waitFor(() => expect(within(dialog).getAllByText(message)).toHaveLength(2));
    expect(within(dialog).getByLabelText('Due on')).toHaveAttribute('aria-invalid', 'true');
    expect(provider.notes.create).not.toHaveBeenCalled();
  });

  it('marks the field the gateway refuses with its detail, with no toast of the client library’s words', async () => {
    const person = userEvent.setup();
    const provider = notesAndClients();
    const detail = 'Já existe uma nota com este texto';
    provider.notes.create.mockImplementationOnce(() =>
      Promise.reject(
        // As the gateway answers a 422 over /graphql, in the data provider's one error shape.
        answerError(200, [
          {
            message: detail,
            extensions: {
              code: 'BAD_USER_INPUT',
              status: 422,
              detail: [{ loc: ['body', 'body'], msg: detail, type: 'value_error' }],
            },
          },
        ]),
      ),
    );
    renderWithAdmin(<DeclaredList resource={'notes' as never} />, { path: '/notes', dataProvider: provider });
    await person.click(await screen.findByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog');
    await person.type(within(dialog).getByLabelText(/^Body/), 'Call the store');
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Save' }).closest('form')!);
    await waitFor(() => expect(within(dialog).getByText(detail)).toBeInTheDocument());
    expect(within(dialog).getByLabelText(/^Body/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/Response not successful/)).not.toBeInTheDocument();
  });
});
