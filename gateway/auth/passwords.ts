import bcrypt from 'bcrypt';

/** bcrypt with a configurable cost. `verifyNobody` spends the same time as a real check, for unknown emails. */
export class PasswordHasher {
  private readonly dummyHash: Promise<string>;

  constructor(private readonly cost: number) {
    this.dummyHash = bcrypt.hash('placeholder-password-for-timing', cost);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  verify(password: string, hash: string): Promise<boolean> {
    return bcrypt.compare(password, hash);
  }

  async verifyNobody(password: string): Promise<false> {
    await bcrypt.compare(password, await this.dummyHash);
    return false;
  }
}
