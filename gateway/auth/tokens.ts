import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { invalidCredentials } from '../errors';

type Purpose = 'access' | 'reset';

interface Claims {
  sub: string;
  ver: number;
  typ: Purpose;
}

/**
 * HS256 JWTs. Access and reset tokens carry `typ` so one can never stand in for the other,
 * and `ver` (the user's token version) so a password change or deactivation revokes them.
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
    return this.sign({ sub: user.id, ver: user.tokenVersion, typ: 'access' }, this.accessMinutes * 60);
  }

  issueReset(user: { id: string; tokenVersion: number }): string {
    return this.sign({ sub: user.id, ver: user.tokenVersion, typ: 'reset' }, this.resetHours * 3600);
  }

  /** The claims of a valid token of that purpose, or undefined. */
  read(token: string, purpose: Purpose): Claims | undefined {
    try {
      const payload = jwt.verify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload !== 'object' || payload === null) return undefined;
      const { sub, ver, typ } = payload as Partial<Claims>;
      if (typ !== purpose || typeof sub !== 'string' || typeof ver !== 'number') return undefined;
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sub)) return undefined;
      return { sub, ver, typ };
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
