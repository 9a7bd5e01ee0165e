import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { invalidCredentials } from '../errors';

type Purpose = 'access' | 'reset';

interface Claims {
  sub: string;
  ver: number;
  typ: Purpose;
  /** Access tokens: the session this token is, so a password change can keep the session that made it. */
  sid?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * HS256 JWTs. Access and reset tokens carry `typ` so one can never stand in for the other,
 * and `ver` (the user's token version) so a password change or deactivation revokes them.
 * Each access token is a session of its own (`sid`, one per sign-in).
 */
export class TokenIssuer {
  // A KeyObject, not the string: given a string, jsonwebtoken first tries to parse it as a PEM key on every call.
  private readonly key: KeyObject;
  /**
   * Access tokens already verified, with their claims and expiry, because every signed-in request presents one and
   * verifying it again costs more than the rest of authentication. Only tokens this gateway signed and that passed
   * verification get in, each until it expires, so the cache stays small; revocation is the user's row's business
   * (`ver`, `sid`), read on every request all the same.
   */
  private readonly verified = new LRUCache<string, { claims: Claims; expires: number }>({ max: 1000 });

  constructor(
    secret: string,
    private readonly accessMinutes: number,
    private readonly resetHours: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issueAccess(user: { id: string; tokenVersion: number }): string {
    return this.sign(
      { sub: user.id, ver: user.tokenVersion, typ: 'access', sid: randomUUID() },
      this.accessMinutes * 60,
    );
  }

  issueReset(user: { id: string; tokenVersion: number }): string {
    return this.sign({ sub: user.id, ver: user.tokenVersion, typ: 'reset' }, this.resetHours * 3600);
  }

  /** The claims of a valid token of that purpose, or undefined. */
  read(token: string, purpose: Purpose): Claims | undefined {
    if (purpose !== 'access') return this.verify(token, purpose)?.claims;
    const known = this.verified.get(token);
    // jsonwebtoken's own test: expired from the second of `exp` on.
    if (known && Math.floor(Date.now() / 1000) < known.expires) return known.claims;
    if (known) this.verified.delete(token);
    const valid = this.verify(token, purpose);
    if (valid?.expires) this.verified.set(token, valid);
    return valid?.claims;
  }

  private verify(token: string, purpose: Purpose): { claims: Claims; expires: number } | undefined {
    try {
      const payload = jwt.verify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload !== 'object' || payload === null) return undefined;
      const { sub, ver, typ, sid, exp } = payload as Partial<Claims> & { exp?: unknown };
      if (typ !== purpose || typeof sub !== 'string' || typeof ver !== 'number') return undefined;
      if (!UUID.test(sub)) return undefined;
      // Tokens issued before sessions had ids carry none: they stay valid, but no password change keeps them.
      if (sid !== undefined && (typeof sid !== 'string' || !UUID.test(sid))) return undefined;
      // Every token is issued with an expiry; one without is never kept as verified.
      return { claims: Object.freeze({ sub, ver, typ, sid }), expires: typeof exp === 'number' ? exp : 0 };
    } catch {
      return undefined;
    }
  }

  readAccess(token: string): Claims {
    const claims = this.read(token, 'access');
    if (!claims) throw invalidCredentials();
    return claims;
  }

  private sign(claims: Claims, seconds: number): string {
    return jwt.sign(claims, this.key, { algorithm: 'HS256', expiresIn: seconds });
  }
}
