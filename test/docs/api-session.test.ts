import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freeStackBase } from '../../platform/ports.js';
import { dataFolder, startStackProcess, stopStack } from '../support/stack-process.js';

/** Where the customer's session of docs/api.md begins: its shell blocks up to the next heading. */
const SESSION = "A customer's session on what `npm start` made";

/** The shell blocks of the session, in order, as a reader would paste them: up to the next heading. */
function sessionBlocks(doc: string): string[] {
  const from = doc.indexOf(SESSION);
  expect(from, `docs/api.md has the session "${SESSION}"`).toBeGreaterThan(-1);
  const blocks: string[] = [];
  let block: string[] | undefined;
  for (const line of doc.slice(from).split('\n')) {
    if (block) {
      if (line === '```') {
        blocks.push(block.join('\n'));
        block = undefined;
      } else block.push(line);
    } else if (line.startsWith('#')) break;
    else if (line === '```sh') block = [];
  }
  return blocks;
}

describe('the customer session of docs/api.md', () => {
  it('runs as pasted, top to bottom, against what npm start made', { timeout: 420_000 }, async () => {
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const blocks = sessionBlocks(doc);
    expect(blocks.length).toBeGreaterThan(0);

    // One base: every listener of the stack sits at its offset from PORT (platform/stack-ports.ts).
    const started = await startStackProcess(
      ['start'],
      { CLOUDSVC_DATA_DIR: dataFolder(), PORT: String(await freeStackBase()) },
      150_000,
    );
    try {
      // `bash -e`: a step the reader would see fail stops the session here, with its output.
      const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', blocks.join('\n')], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          BASE: started.field('API base URL'),
          CLIENT_KEY: started.field('Client key'),
          APP_KEY: started.field('Application key'),
        },
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(run.status, `the session stopped:\n${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('"ssh_keys"');
      expect(run.stdout).toContain('"object":"instance_storage"');
    } finally {
      await stopStack(started);
    }
  });
});
