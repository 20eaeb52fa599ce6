import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * What the production shape needs that npm does not install: HAProxy, and the Temporal server
 * built by scripts/prod/temporal-server.sh (ten minutes, once). CI has both (.ci/run), and a test
 * of the shape fails there without them; elsewhere it says what is missing and skips.
 */
const serverBuilt = existsSync(
  join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'cloudsvc/temporal-server/v1.29.1/temporal-server',
  ),
);
export const shapeMissing = [
  ...(spawnSync('haproxy', ['-v']).error ? ['haproxy (apt-get install haproxy)'] : []),
  ...(serverBuilt ? [] : ['the Temporal server (bash scripts/prod/temporal-server.sh)']),
];

/** Throws on CI, where the shape must run; elsewhere says why its tests skip. Answers whether they skip. */
export function skipWithoutShape(what: string): boolean {
  if (shapeMissing.length === 0) return false;
  if (process.env.CI === 'true') throw new Error(`${what} needs ${shapeMissing.join(' and ')}`);
  console.log(`${what} is skipped: it needs ${shapeMissing.join(' and ')}`);
  return true;
}
