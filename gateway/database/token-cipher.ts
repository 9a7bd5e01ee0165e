import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { Type } from '@mikro-orm/core';
import { LRUCache } from 'lru-cache';

/**
 * AES-256-GCM for store credentials at rest. Stored form: `v1:` + base64(iv | tag | ciphertext),
 * so a `SELECT` shows no token in clear and a tampered value fails to decrypt.
 */
const VERSION = 'v1:';
// A KeyObject made once: handing a Buffer to every cipher would rebuild it on each token.
let key: KeyObject | undefined;

export function setTokenEncryptionKey(base64Key: string): void {
  const bytes = Buffer.from(base64Key, 'base64');
  if (bytes.length !== 32) throw new Error('TOKEN_ENCRYPTION_KEY must be 32 bytes encoded in base64');
  key = createSecretKey(bytes);
  decrypted.clear();
}

/**
 * What a stored form decrypts to, for the stored forms read most recently: a list page shows the same rows again and
 * again, and each row holds two tokens, so decrypting each on every read (a cipher made and its tag checked) was a
 * large part of a page's cost. A stored form is decrypted under one key to one text or fails its tag, so a stored form
 * found here is one that passed its check; only what passed is kept, and the key changing empties it. Bounded in
 * bytes (two a character, the stored form and the text): at most TOKEN_CACHE_BYTES.
 */
export const TOKEN_CACHE_BYTES = 1024 * 1024;
const decrypted = new LRUCache<string, string>({
  maxSize: TOKEN_CACHE_BYTES,
  sizeCalculation: (plain, stored) => 2 * (stored.length + plain.length),
});

function currentKey(): KeyObject {
  if (!key) throw new Error('The token encryption key was not set before the database was used');
  return key;
}

export function encryptToken(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', currentKey(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export function decryptToken(stored: string): string {
  const known = decrypted.get(stored);
  if (known !== undefined) return known;
  const plain = decryptStored(stored);
  decrypted.set(stored, plain);
  return plain;
}

function decryptStored(stored: string): string {
  if (!stored.startsWith(VERSION)) throw new Error('Stored token is not in the expected encrypted form');
  const raw = Buffer.from(stored.slice(VERSION.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', currentKey(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const plain = decipher.update(raw.subarray(28));
  decipher.final(); // checks the tag; GCM has nothing left to output
  return plain.toString('utf8');
}

/** A text column whose values are encrypted on the way in and decrypted on the way out. */
export class EncryptedText extends Type<string | null | undefined, string | null | undefined> {
  convertToDatabaseValue(value: string | null | undefined): string | null | undefined {
    return value == null ? value : encryptToken(value);
  }

  convertToJSValue(value: string | null | undefined): string | null | undefined {
    return value == null ? value : decryptToken(value);
  }

  // Each encryption uses a fresh IV, so two stored forms of one token differ: compare plaintexts.
  compareValues(a: string | null | undefined, b: string | null | undefined): boolean {
    if (a == null || b == null) return a === b;
    return a === b || decryptToken(a) === decryptToken(b);
  }

  ensureComparable(): boolean {
    return false;
  }

  getColumnType(): string {
    return 'text';
  }
}
