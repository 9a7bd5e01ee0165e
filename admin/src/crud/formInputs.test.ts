import { mutationOf } from './mutations';
import { describe, expect, it } from 'vitest';
import { createData, createDefaults, formInputs, updateData } from './formInputs';
import { validatorsFor } from './validators';

const bySource = (resource: string, mode: 'create' | 'edit') =>
  Object.fromEntries(formInputs(resource, mode).map((input) => [input.source, input]));

/** The first message key a value gets from the input's derived validators. */
const check = (input: ReturnType<typeof formInputs>[number], value: unknown) => {
  for (const validate of validatorsFor(input, (rule) => rule)) {
    const error = validate(value, {}, {} as never);
    if (error) return typeof error === 'string' ? error : (error as { message: string; args?: object }).message;
  }
  return undefined;
};

describe('inputs derived from the schema', () => {
  it("reads each create argument's kind, required-ness, default and bounds", () => {
    const client = bySource('clientes', 'create');
    expect(client.url).toMatchObject({
      kind: 'url',
      required: true,
      constraint: { minLength: 1, maxLength: 255, format: 'url' },
    });
    expect(client.hiper_token).toMatchObject({ kind: 'text', required: false, secret: true });
    expect(client.nuvemshop_store_id).toMatchObject({ kind: 'number', required: false, defaultValue: 0 });
    expect(client.hiper_sync_update_image).toMatchObject({ kind: 'boolean', defaultValue: true });
    const user = bySource('admin', 'create');
    expect(user.email).toMatchObject({ kind: 'email', required: true });
    expect(user.password).toMatchObject({
      kind: 'password',
      required: true,
      constraint: { minLength: 8, maxLength: 128 },
    });
    expect(Object.keys(bySource('items', 'create'))).toEqual(['title', 'description']);
  });

  it('asks on edit for the same inputs as on create, in the same order, with the same required marks', () => {
    const shown = (resource: string, mode: 'create' | 'edit') =>
      formInputs(resource, mode).map(({ source, required }) => `${source}${required ? ' *' : ''}`);
    expect(shown('clientes', 'edit')).toEqual(shown('clientes', 'create'));
    // What must be given first, then texts, numbers and switches: every argument of the create mutation.
    const created = shown('clientes', 'create');
    expect(created[0]).toBe('url *');
    expect(created.map((input) => input.replace(' *', '')).sort()).toEqual(
      Object.keys(mutationOf('createClient')!.args).sort(),
    );
    expect(created.indexOf('hiper_token')).toBeLessThan(created.indexOf('nuvemshop_store_id'));
    expect(created.indexOf('nuvemshop_store_id')).toBeLessThan(created.indexOf('hiper_sync_update_image'));
    expect(shown('items', 'edit')).toEqual(shown('items', 'create'));
    // A password is set on create; on edit, left empty, it stays as it is.
    expect(shown('admin', 'create')).toContain('password *');
    expect(shown('admin', 'edit')).toEqual(
      shown('admin', 'create').map((input) => input.replace('password *', 'password')),
    );
  });

  it('validates with the bounds the schema declares', () => {
    const item = bySource('items', 'create');
    expect(check(item.title, '   ')).toBe('required');
    expect(check(item.title, 'x'.repeat(255))).toBeUndefined();
    expect(check(item.title, 'x'.repeat(256))).toBe('maxLength');
    const user = bySource('admin', 'create');
    expect(check(user.password, 'short')).toBe('minLength');
    expect(check(user.password, 'long enough')).toBeUndefined();
    expect(check(user.email, 'not-an-email')).toBe('email');
    const url = bySource('clientes', 'create').url;
    for (const typed of ['not a url', 'loja.example.com', 'ftp://loja.example.com', 'https://', 'https:/loja.com']) {
      expect(check(url, typed), typed).toBe('url');
    }
    for (const typed of ['https://loja.example.com', 'http://localhost:8080/x', ' HTTPS://Loja.Example.com ']) {
      expect(check(url, typed), typed).toBeUndefined();
    }
    const storeId = bySource('clientes', 'create').nuvemshop_store_id;
    expect(check(storeId, '12a')).toBe('digits');
    expect(check(storeId, '-1')).toBe('digits');
    expect(check(storeId, '9007199254740992')).toBe('maxValue');
    expect(check(storeId, '42')).toBeUndefined();
  });

  it('starts from the defaults, sends numbers as numbers, and on edit only what changed', () => {
    const inputs = formInputs('clientes', 'create');
    expect(createDefaults(inputs)).toEqual({
      nuvemshop_store_id: 0,
      hiper_sync_update_image: true,
      hiper_sync_update_dimensions: true,
      orders_enabled: false,
      orders_send_on: 'paid',
      orders_release_on: 'invoiced',
      orders_cancel_in_store: true,
    });
    expect(createData(inputs, { url: 'https://a.example', nuvemshop_store_id: '12', hiper_token: '' })).toEqual({
      url: 'https://a.example',
      nuvemshop_store_id: 12,
      hiper_token: null,
    });
    const record = { id: 'c1', url: 'https://a.example', nuvemshop_store_id: 12, hiper_sync_update_image: true };
    expect(
      updateData(formInputs('clientes', 'edit'), { ...record, nuvemshop_store_id: '13', hiper_token: null }, record),
    ).toEqual({ nuvemshop_store_id: 13 });
    // An emptied store id is its default, 0 (not linked), rather than nothing sent.
    expect(updateData(formInputs('clientes', 'edit'), { ...record, nuvemshop_store_id: '' }, record)).toEqual({
      nuvemshop_store_id: 0,
    });
    const user = { id: 'u1', email: 'a@example.com', full_name: 'Ana' };
    expect(updateData(formInputs('admin', 'edit'), { ...user, password: null, full_name: null }, user)).toEqual({
      full_name: null,
    });
  });
});
