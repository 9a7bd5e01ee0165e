import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  decryptToken,
  encryptToken,
  setTokenEncryptionKey,
  TOKEN_CACHE_BYTES,
} from '../../gateway/database/token-cipher';

// Counts the ciphers made (vi.mock is hoisted above the imports), through node:crypto's own function.
const deciphers = vi.hoisted(() => ({ made: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  return {
    ...crypto,
    createDecipheriv: (...args: Parameters<typeof crypto.createDecipheriv>) => {
      deciphers.made++;
      return crypto.createDecipheriv(...args);
    },
  };
});

const newKey = () => randomBytes(32).toString('base64');

describe('stored tokens', () => {
  beforeEach(() => {
    setTokenEncryptionKey(newKey());
    deciphers.made = 0;
  });

  it('decrypts a stored form read again without making a cipher again, to the same text', () => {
    const stored = encryptToken('hiper-token-1');
    expect(decryptToken(stored)).toBe('hiper-token-1');
    expect(decryptToken(stored)).toBe('hiper-token-1');
    expect(decryptToken(stored)).toBe('hiper-token-1');
    expect(deciphers.made).toBe(1);
  });

  it('refuses a tampered stored form every time, also after its untampered form was read', () => {
    const stored = encryptToken('nuvemshop-token');
    expect(decryptToken(stored)).toBe('nuvemshop-token');
    const raw = Buffer.from(stored.slice(3), 'base64');
    raw[raw.length - 1] ^= 1;
    const tampered = 'v1:' + raw.toString('base64');
    expect(() => decryptToken(tampered)).toThrow();
    expect(() => decryptToken(tampered)).toThrow();
    expect(() => decryptToken('plain-text')).toThrow('not in the expected encrypted form');
  });

  it('forgets what it decrypted when the key changes: the old stored form no longer opens', () => {
    const stored = encryptToken('token-under-the-old-key');
    expect(decryptToken(stored)).toBe('token-under-the-old-key');
    setTokenEncryptionKey(newKey());
    expect(() => decryptToken(stored)).toThrow();
  });

  it('keeps at most its bound: the oldest stored forms are decrypted again', () => {
    const long = 'x'.repeat(4096);
    // Each entry holds the stored form and the text, two bytes a character.
    const each = 2 * (encryptToken(long).length + long.length);
    const kept = Math.floor(TOKEN_CACHE_BYTES / each);
    const stored = Array.from({ length: kept + 10 }, (_, i) => encryptToken(long.slice(0, -6) + String(i).padStart(6)));
    for (const s of stored) decryptToken(s);
    deciphers.made = 0;
    decryptToken(stored[0]);
    expect(deciphers.made).toBe(1);
    decryptToken(stored.at(-1)!);
    expect(deciphers.made).toBe(1);
  });
});
