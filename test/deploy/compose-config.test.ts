import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The compose file as Compose itself reads it: tools/compose-check loads it with the compose
 * specification's Go library (what `docker compose config` uses) and the checked-in .env.example,
 * and fails on an unknown key, an unresolved variable or a missing bind-mount source. No Docker
 * engine runs here; Go does, and CI has it.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const goMissing = spawnSync('go', ['version']).error !== undefined;
if (goMissing && process.env.CI === 'true')
  throw new Error('the compose file check needs Go (tools/compose-check)');
if (goMissing)
  console.log('the compose file check is skipped: it needs Go (https://go.dev/dl/) for tools/compose-check');

const folder = mkdtempSync(join(tmpdir(), 'cloudsvc-compose-check-'));
const checker = join(folder, 'compose-check');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const envExample = readFileSync(join(root, '.env.example'), 'utf8');

/** Runs the checker; resolves with its exit code and output instead of throwing on a refusal. */
async function check(file: string, envFile: string) {
  try {
    const { stdout, stderr } = await run(checker, ['-file', file, '-env-file', envFile]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A variant of the compose file beside the checkout's docker/ folder, so its mounts resolve. */
function variant(name: string, text: string, env = envExample) {
  const dir = mkdtempSync(join(folder, `${name}-`));
  symlinkSync(join(root, 'docker'), join(dir, 'docker'));
  writeFileSync(join(dir, 'docker-compose.yml'), text);
  writeFileSync(join(dir, '.env.example'), env);
  return { file: join(dir, 'docker-compose.yml'), env: join(dir, '.env.example') };
}

describe.skipIf(goMissing)('docker-compose.yml, loaded by the compose specification library', () => {
  beforeAll(async () => {
    // The first build fetches the library through the Go module proxy (go.sum pins it) and compiles it.
    await run('go', ['build', '-o', checker, '.'], { cwd: join(root, 'tools/compose-check') });
  }, 600_000);

  it('is valid with .env.example, every variable set and every mounted file present', async () => {
    const result = await check(join(root, 'docker-compose.yml'), join(root, '.env.example'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'services: api, console-gateway, console-gateway-credential, migrate, postgres, proxy, temporal, temporal-setup, temporal-ui, worker',
    );
  });

  it('refuses a key the specification does not know, naming it', async () => {
    const misspelt = variant(
      'unknown-key',
      composeText.replace('    restart: unless-stopped\n', '    restrat: unless-stopped\n'),
    );
    const result = await check(misspelt.file, misspelt.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('restrat');
  });

  it('refuses a variable that neither the env file nor a default sets, and a required one left out', async () => {
    const unset = variant(
      'unset',
      composeText.replace('LOG_LEVEL: info', `LOG_LEVEL: \${CLOUDSVC_LOG_LEVEL}`),
    );
    const result = await check(unset.file, unset.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'variable CLOUDSVC_LOG_LEVEL is set neither by the env file nor by a default',
    );

    const noKey = variant('no-secrets-key', composeText, envExample.replace(/^SECRETS_KEY=.*$/m, ''));
    const refused = await check(noKey.file, noKey.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('required variable SECRETS_KEY is missing a value');
  });

  it('refuses a bind mount whose file is not in the checkout', async () => {
    const moved = variant(
      'missing-mount',
      composeText.replace('./docker/haproxy.cfg', './docker/haproxy-moved.cfg'),
    );
    const result = await check(moved.file, moved.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('service proxy mounts');
    expect(result.stderr).toContain('haproxy-moved.cfg, which does not exist');
  });
});

describe('.env.example', () => {
  it('sets every variable the compose file reads, so it documents them all', () => {
    const used = new Set([...composeText.matchAll(/(?<!\$)\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!));
    const set = new Set([...envExample.matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
    expect([...used].sort()).toEqual([...set].sort());
  });
});
