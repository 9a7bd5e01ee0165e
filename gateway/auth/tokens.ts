import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
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
    try {
      const payload = jwt.verify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload !== 'object' || payload === null) return undefined;
      const { sub, ver, typ, sid } = payload as Partial<Claims>;
      if (typ !== purpose || typeof sub !== 'string' || typeof ver !== 'number') return undefined;
      if (!UUID.test(sub)) return undefined;
      // Tokens issued before sessions had ids carry none: they stay valid, but no password change keeps them.
      if (sid !== undefined && (typeof sid !== 'string' || !UUID.test(sid))) return undefined;
      return { sub, ver, typ, sid };
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
