import { messages } from '../messages';
import { PlatformError } from './platform-call';

/** Nuvemshop no longer accepts the store's token (uninstalled, reinstalled, revoked): never retried. */
export class TokenRevoked extends PlatformError {
  constructor(body?: unknown) {
    super(messages.storeTokenRevoked, false, 401, body, 'nuvemshop_token_revoked');
  }
}

/** The store or the app's charge is unpaid: every call answers 402 until `app/resumed`. Never retried. */
export class StoreSuspended extends PlatformError {
  constructor(body?: unknown) {
    super(messages.storeSuspended, false, 402, body, 'nuvemshop_suspended');
  }
}

/** Nuvemshop answered 403: the app lacks a scope for the call; nothing changes until the store grants it. */
export class PermissionMissing extends PlatformError {
  constructor(
    body?: unknown,
    /** The scope the refused call needs (`scopeOfCall`), or null for a call that needs none of its own. */
    readonly scope: string | null = null,
  ) {
    super(messages.storePermissionMissing, false, 403, body, 'nuvemshop_permission_missing');
  }
}

/** Nuvemshop was down, slow or kept answering 429: the same call may work later. */
export class NuvemshopUnavailable extends PlatformError {
  constructor(
    code:
      | 'nuvemshop_unreachable'
      | 'nuvemshop_timeout'
      | 'nuvemshop_unavailable'
      | 'nuvemshop_busy'
      | 'nuvemshop_rate_limited'
      | 'nuvemshop_not_understood',
    message: string,
    status?: number,
    body?: unknown,
  ) {
    super(message, true, status, body, code);
  }
}

/** Nuvemshop refused the call itself (400, 404, 415, 422...): sending it again will not help. */
export class NuvemshopRefused extends PlatformError {
  constructor(method: string, path: string, status: number, body: unknown) {
    super(
      `Nuvemshop refused ${method} ${path} (HTTP ${status}): ${describe(body)}`,
      false,
      status,
      body,
      'nuvemshop_refused',
    );
  }

  get detail(): string {
    return describe(this.body);
  }
}

/** The gist of a refusal's body, whichever of Nuvemshop's two shapes it has. */
function describe(body: unknown): string {
  if (body && typeof body === 'object') {
    const { description, message, error, code: _code, ...fields } = body as Record<string, unknown>;
    const said = [description, error, message].find((v) => typeof v === 'string' && v);
    const details = Object.entries(fields)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => `${k}: ${(v as unknown[]).join(', ')}`);
    return [said, ...details].filter(Boolean).join('; ') || JSON.stringify(body);
  }
  return String(body ?? '').slice(0, 200);
}
