import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../console-gateway/config.js';
import { createDatabase } from '../../db/database.js';
import { findActiveCredential } from '../../db/repositories/accounts/active-credentials.js';
import { hashToken } from '../../domain/credentials.js';
import { composeProject } from '../support/compose-file.js';
import { testConfig } from '../support/config.js';

/**
 * The compose file's console-gateway-credential service, its script run as the container runs it
 * (sh, the operator CLI, node) against the real database, into a folder standing for its volume.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const VOLUME = '/var/lib/cloudsvc/console-gateway';
const compose = composeProject();
const service = compose.services['console-gateway-credential']!;
const gateway = compose.services['console-gateway']!;

const volume = mkdtempSync(join(tmpdir(), 'cloudsvc-gateway-volume-'));
// The folder stands in for the volume.
const script = service.command![0]!.replaceAll(VOLUME, volume);
const config = testConfig();
const database = createDatabase({ url: config.DATABASE_URL, poolSize: 1, namedStatements: false });
afterAll(async () => {
  await database.close();
  rmSync(volume, { recursive: true, force: true });
});

const setUp = async () =>
  (
    await run('sh', ['-c', script], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: config.DATABASE_URL },
    })
  ).stdout.trim();

describe('console-gateway-credential (docker-compose.yml)', () => {
  beforeAll(() => {
    expect(service.entrypoint).toEqual(['sh', '-c']);
    expect(gateway.environment?.GATEWAY_CREDENTIAL_FILE).toBe(`${VOLUME}/credential`);
  });

  it('issues a console-gateway credential the gateway reads from its file, once: a second start keeps it', async () => {
    expect(await setUp()).toBe('console gateway credential issued');
    const file = join(volume, 'credential');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { GATEWAY_CREDENTIAL: token } = loadGatewayConfig({
      ...gateway.environment,
      GATEWAY_CREDENTIAL_FILE: file,
    });
    expect(token).toMatch(/^csw_/);
    const credential = await findActiveCredential(database.db, hashToken(token));
    expect(credential?.type).toBe('console_gateway');

    expect(await setUp()).toBe('console gateway credential kept');
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
  }, 120_000);
});
