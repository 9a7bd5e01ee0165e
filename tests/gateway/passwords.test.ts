import { describe, expect, it } from 'vitest';
import { PasswordHasher } from '../../gateway/auth/passwords';

describe('PasswordHasher', () => {
  it('runs no more hashes at once than it is allowed, queueing the rest, and answers each', async () => {
    const hasher = new PasswordHasher(4, 1);
    const hash = await hasher.hash('a-good-password');
    const checks = [
      hasher.verify('a-good-password', hash),
      hasher.verify('wrong-password', hash),
      hasher.verifyNobody('a-good-password'),
    ];
    // One runs, the other two wait for its slot (verifyNobody first awaits its ready-made hash).
    await new Promise((resolve) => setImmediate(resolve));
    expect(hasher.waiting).toBe(2);
    expect(await Promise.all(checks)).toEqual([true, false, false]);
    expect(hasher.waiting).toBe(0);
  });

  it('keeps a core free for the server by default, and at least one slot', async () => {
    const hasher = new PasswordHasher(4);
    const hash = await hasher.hash('x');
    const { availableParallelism } = await import('node:os');
    const allowed = Math.max(1, availableParallelism() - 1);
    const checks = Array.from({ length: allowed + 2 }, () => hasher.verify('x', hash));
    await new Promise((resolve) => setImmediate(resolve));
    expect(hasher.waiting).toBe(2);
    expect(await Promise.all(checks)).toEqual(checks.map(() => true));
  });
});
