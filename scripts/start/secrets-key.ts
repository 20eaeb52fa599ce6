import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** The key that seals passwords, made once and kept (mode 0600) in the data folder. */
export function secretsKey(path: string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return key;
}
