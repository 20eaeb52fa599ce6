import { createHash, createHmac } from 'node:crypto';

/**
 * SHA-512 crypt (`$6$`, Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512", the default
 * rounds): what /etc/shadow holds and what the guest's login, su and `mkpasswd -m sha512` check.
 * Node has no crypt(3); the agent hashes the password itself so that the plaintext never leaves
 * its process.
 */
export function sha512Crypt(password: string, salt: string): string {
  if (!/^[./0-9A-Za-z]{1,16}$/.test(salt))
    throw new Error('a crypt salt is 1 to 16 characters of [./0-9A-Za-z]');
  const p = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt, 'ascii');
  const sha = (...parts: Buffer[]) => {
    const h = createHash('sha512');
    for (const part of parts) h.update(part);
    return h.digest();
  };
  /** `digest` repeated to `length` bytes. */
  const stretch = (digest: Buffer, length: number) =>
    Buffer.concat(Array.from({ length: Math.ceil(length / 64) }, () => digest)).subarray(0, length);

  const b = sha(p, s, p);
  const a = createHash('sha512').update(p).update(s).update(stretch(b, p.length));
  for (let n = p.length; n > 0; n >>= 1) a.update(n & 1 ? b : p);
  let digest = a.digest();

  const pBytes = stretch(sha(...Array.from({ length: p.length }, () => p)), p.length);
  const sBytes = stretch(sha(...Array.from({ length: 16 + digest[0]! }, () => s)), s.length);
  for (let round = 0; round < 5000; round++) {
    const c = createHash('sha512');
    c.update(round & 1 ? pBytes : digest);
    if (round % 3) c.update(sBytes);
    if (round % 7) c.update(pBytes);
    c.update(round & 1 ? digest : pBytes);
    digest = c.digest();
  }
  return `$6$${salt}$${encode(digest)}`;
}

const ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The byte triples in the order the algorithm writes them, the last byte alone. */
const ORDER = [
  [0, 21, 42],
  [22, 43, 1],
  [44, 2, 23],
  [3, 24, 45],
  [25, 46, 4],
  [47, 5, 26],
  [6, 27, 48],
  [28, 49, 7],
  [50, 8, 29],
  [9, 30, 51],
  [31, 52, 10],
  [53, 11, 32],
  [12, 33, 54],
  [34, 55, 13],
  [56, 14, 35],
  [15, 36, 57],
  [37, 58, 16],
  [59, 17, 38],
  [18, 39, 60],
  [40, 61, 19],
  [62, 20, 41],
] as const;

function encode(digest: Buffer): string {
  let out = '';
  const put = (word: number, chars: number) => {
    for (let i = 0; i < chars; i++, word >>= 6) out += ALPHABET[word & 0x3f];
  };
  for (const [hi, mid, lo] of ORDER) put((digest[hi]! << 16) | (digest[mid]! << 8) | digest[lo]!, 4);
  put(digest[63]!, 2);
  return out;
}

/**
 * The salt for a password, keyed by a secret the agent keeps per guest: the same password gives
 * the same hash (a task delivered twice leaves the same line in /etc/shadow and reports no change),
 * and without the key the salt says nothing about the password.
 */
export function passwordSalt(key: string, password: string): string {
  const bytes = createHmac('sha256', key).update(password, 'utf8').digest();
  let salt = '';
  for (let i = 0; i < 16; i++) salt += ALPHABET[bytes[i]! & 0x3f];
  return salt;
}
