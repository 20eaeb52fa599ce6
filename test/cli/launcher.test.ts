import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));

/** A checkout in miniature: bin/cloudsvc.js with a CLI that says which code ran. */
const root = mkdtempSync(join(tmpdir(), 'cloudsvc-launcher-'));
mkdirSync(join(root, 'bin'));
mkdirSync(join(root, 'cli'));
mkdirSync(join(root, 'domain'));
mkdirSync(join(root, 'dist/cli'), { recursive: true });
copyFileSync(join(repo, 'bin/cloudsvc.js'), join(root, 'bin/cloudsvc.js'));
symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
writeFileSync(join(root, 'package.json'), '{ "type": "module" }');
writeFileSync(join(root, 'cli/main.ts'), "console.log('source');\n");
writeFileSync(join(root, 'domain/rules.ts'), 'export const rule = 1;\n');
writeFileSync(join(root, 'dist/cli/main.js'), "console.log('built');\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (path: string, seconds: number) => utimesSync(join(root, path), seconds, seconds);
const launched = async () => (await run(process.execPath, [join(root, 'bin/cloudsvc.js')])).stdout.trim();

describe('bin/cloudsvc.js', () => {
  it('runs the build while it is newer than every source file, and the source once one is newer', async () => {
    at('cli/main.ts', 1_000);
    at('domain/rules.ts', 1_000);
    at('dist/cli/main.js', 2_000);
    expect(await launched()).toBe('built');
    expect(await launched()).toBe('built');
    // An edit anywhere the CLI may load, not only in cli/, makes the build stale.
    at('domain/rules.ts', 3_000);
    expect(await launched()).toBe('source');
    expect(await launched()).toBe('source');
  });

  it('runs the build where there is no source (the image)', async () => {
    rmSync(join(root, 'cli/main.ts'));
    at('dist/cli/main.js', 500);
    expect(await launched()).toBe('built');
  });
});
