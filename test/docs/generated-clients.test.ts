import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const generate = (...args: string[]) =>
  spawnSync(join(root, 'node_modules/.bin/tsx'), ['scripts/generate-clients.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
const folder = mkdtempSync(join(tmpdir(), 'clients-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * The typed clients (`clients/`) are generated from the documents the server builds; the agent,
 * the console gateway and the end-to-end customer are typed by them, so a route that changes
 * without `npm run clients` fails here, and a document that lies fails the type check.
 */
// Each generation loads the whole server under tsx to build its documents: about 16 s alone, over a
// minute on a machine running four files at once; the second test runs two.
describe('the generated clients', { timeout: 300_000 }, () => {
  it('are what the current documents give (npm run clients -- --check)', () => {
    const check = generate('--check');
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('are found stale, by name, when one differs from its document, and the check writes nothing', () => {
    cpSync(join(root, 'clients'), folder, { recursive: true });
    const agent = join(folder, 'agent.ts');
    const edited = readFileSync(agent, 'utf8').replace("'/heartbeat': {", "'/heartbeats': {");
    writeFileSync(agent, edited);
    const check = generate('--check', '--dir', folder);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('stale generated clients');
    expect(check.stderr).toContain('agent.ts');
    expect(check.stderr).not.toContain('client.ts');
    expect(readFileSync(agent, 'utf8')).toBe(edited);

    expect(generate('--dir', folder).status).toBe(0);
    expect(readFileSync(agent, 'utf8')).toBe(readFileSync(join(root, 'clients/agent.ts'), 'utf8'));
  });
});
