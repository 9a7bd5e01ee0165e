import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../gateway/errors';
import { id, text } from '../../gateway/kit/field';
import { Resource } from '../../gateway/kit/resource';
import { validate } from '../../gateway/validation';

/** The issues a body's validation answers, as a caller reads them. */
function issuesOf(resource: Resource, body: object) {
  try {
    validate(resource.create.schema, body, 'body', resource.secrets);
  } catch (error) {
    if (error instanceof ValidationFailed) return error.issues;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe("a resource's secrets", () => {
  const vault = new Resource('Vault', { id: id(), pin: text({ required: true, max: 6, secret: true }) });
  const note = new Resource('Note', { id: id(), pin: text({ required: true, max: 6 }) });

  it('are its secret and password fields', () => {
    expect([...vault.secrets]).toEqual(['pin']);
    expect([...note.secrets]).toEqual([]);
  });

  it('are never echoed by its validation errors', () => {
    const [issue] = issuesOf(vault, { pin: '123456789' });
    expect(issue).toMatchObject({ loc: ['body', 'pin'], type: 'string_too_long' });
    expect(issue?.input).toBeUndefined();
  });

  it("are its own: another resource's field of the same name is echoed as any field", () => {
    const [issue] = issuesOf(note, { pin: '123456789' });
    expect(issue).toMatchObject({ loc: ['body', 'pin'], type: 'string_too_long', input: '123456789' });
  });
});
