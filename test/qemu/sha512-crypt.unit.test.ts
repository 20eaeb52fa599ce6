import { describe, expect, it } from 'vitest';
import { passwordSalt, sha512Crypt } from '../../agent/drivers/qemu/password/sha512-crypt.js';

describe('SHA-512 crypt', () => {
  it('gives the hashes of the algorithm’s specification and of OpenSSL', () => {
    // Drepper's "Unix crypt using SHA-256 and SHA-512", test vector 1.
    expect(sha512Crypt('Hello world!', 'saltstring')).toBe(
      '$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1',
    );
    // `openssl passwd -6 -salt a./Z 'pässwörd with spaces'`: UTF-8, spaces, a short salt.
    expect(sha512Crypt('pässwörd with spaces', 'a./Z')).toBe(
      '$6$a./Z$6Zca7Z1Kto4/KLcjkxb7LthYF9d940BXh7gFF.RmjcPZIqwOAVoXLkGhkNnCBjxTpM6wjXVjnyf8k5dMIiSFg0',
    );
    // Longer than one SHA-512 block: `openssl passwd -6 -salt saltstring $(printf 'a%.0s' $(seq 200))`.
    expect(sha512Crypt('a'.repeat(200), 'saltstring')).toBe(
      '$6$saltstring$sIRykBS7W9H8Begecqfp9EBO0PgJcNLm/IfTWftLr9lI9QW0x.P7rny5vRVXJVT0kvV782vfKPKm723XXOFvR0',
    );
  });

  it('refuses a salt crypt would not read back', () => {
    expect(() => sha512Crypt('x', 'has$dollar')).toThrow();
    expect(() => sha512Crypt('x', '')).toThrow();
    expect(() => sha512Crypt('x', 'a'.repeat(17))).toThrow();
  });

  it('salts a password the same way twice under one key, differently under another', () => {
    const salt = passwordSalt('key-1', 'secret');
    expect(salt).toMatch(/^[./0-9A-Za-z]{16}$/);
    expect(passwordSalt('key-1', 'secret')).toBe(salt);
    expect(passwordSalt('key-2', 'secret')).not.toBe(salt);
    expect(passwordSalt('key-1', 'other')).not.toBe(salt);
  });
});
