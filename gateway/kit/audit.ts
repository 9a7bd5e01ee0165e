import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/caller';
import type { Fields } from './field';

/**
 * What a person did: a record created, changed or deleted (an archived client restored or purged), or an action on
 * one (a client's sync, an order resent or marked sent, a client's locations read or put in a new order, a default
 * location, a sweep of a store's orders, a password changed, an account opened).
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'restore',
  'purge',
  'sync',
  'resend',
  'mark_sent',
  'sweep',
  'read_locations',
  'priorities',
  'default_location',
  'password',
  'signup',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A field's values around a write: before (an update, a delete) and after (a create, an update); secrets `alterado`. */
export type AuditChange = { before?: unknown; after?: unknown };

type Em = ReturnType<MikroORM['em']['fork']>;
type Row = Record<string, unknown>;

/**
 * What an action runs inside its own transaction once its change is made: the action's audit row, so that the row
 * and the change commit together or not at all.
 */
export type InTransaction = (em: Em) => Promise<void>;

/** How a secret or a password appears in the audit log, whatever its value. */
export const CHANGED_SECRET = 'alterado';

/** One write, as the audit log records it. */
export interface AuditEntry {
  action: AuditAction;
  /** The resource's GraphQL name (`Client`, `User`). */
  resource: string;
  recordId: string;
  changes?: Record<string, AuditChange>;
}

/** Who wrote: the acting person's id, e-mail and address (a signed-in request's user carries them). */
export type AuditActor = Pick<Actor, 'id'> & { email?: string; address?: string };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields a write changed, from the record as answered (secrets revealed) before and after it: a create's values
 * after, a delete's before, an update's changed fields both ways. A secret or a password is `alterado`, never its
 * value; a secret's raw values (`rawBefore`, `rawAfter`) tell whether it changed.
 */
export function changesOf(
  fields: Fields,
  before: Row | null,
  after: Row | null,
  raw: { before?: Row | null; after?: Row | null; secret?: (name: string) => string } = {},
): Record<string, AuditChange> {
  const changes: Record<string, AuditChange> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (name === 'id' || name === 'created_at' || field.hidden || field.kind === 'password') continue;
    const secret = !!field.secret;
    const property = raw.secret?.(name) ?? name;
    const was = secret && raw.before ? raw.before[property] : before?.[name];
    const is = secret && raw.after ? raw.after[property] : after?.[name];
    if (before && after && same(was, is)) continue;
    if (!before && (is === undefined || is === null)) continue;
    const shown = (value: unknown) => (secret && value != null && value !== '' ? CHANGED_SECRET : (value ?? null));
    const change: AuditChange = {};
    if (before) change.before = shown(was);
    if (after) change.after = shown(is);
    changes[name] = change;
  }
  return changes;
}

/**
 * Adds the write's audit row in the transaction `em` is in (the write's own: a failed write records nothing). One
 * insert; nothing for a write with no acting person.
 */
export async function recordAudit(em: Em, actor: AuditActor | undefined, entry: AuditEntry): Promise<void> {
  if (!actor) return;
  await em.execute(
    `insert into audit_events (id, created_at, user_id, user_email, address, action, resource, record_id, changes)
     values (?, now(), ?, ?, ?, ?, ?, ?, ?)`,
    [
      randomUUID(),
      actor.id,
      actor.email ?? null,
      actor.address ?? null,
      entry.action,
      entry.resource,
      entry.recordId,
      JSON.stringify(entry.changes ?? {}),
    ],
    'run',
  );
}
