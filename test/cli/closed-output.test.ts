import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { seed } from '../support/seed.js';

/**
 * The `cloudsvc` executable as a process whose reader leaves early (`cloudsvc … | head`): the
 * output that no one reads is dropped without a word, and the command exits with its own code.
 * Node ignores SIGPIPE, so without care the first write after the reader left died of an
 * unhandled EPIPE with a stack trace on stderr.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: inject('databaseUrl') };

/** Runs the CLI with its stdout a pipe that this side closes before the CLI has written anything. */
function runIntoClosedReader(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['bin/cloudsvc.js', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('cloudsvc writing to a reader that has gone', () => {
  it('ends quietly with its own exit code: help, and a list read from the database', async () => {
    const help = await runIntoClosedReader(['--help']);
    expect(help).toEqual({ code: 0, stderr: '' });

    const database = createDatabase({ url: env.DATABASE_URL, poolSize: 1, namedStatements: false });
    await seed.hypervisor(database.db);
    await database.close();
    const listed = await runIntoClosedReader(['cloudsvc:hypervisors:list', '--per-page=100']);
    expect(listed).toEqual({ code: 0, stderr: '' });
    // A refusal keeps its code and still speaks on stderr, which is still read.
    const refused = await runIntoClosedReader(['cloudsvc:hypervisors:list', '--page=0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--page must be 1 to');
  }, 60_000);

  it('piped into head, prints the first line and nothing on stderr', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      'bash',
      ['-o', 'pipefail', '-c', `"${process.execPath}" bin/cloudsvc.js --help | head -n 1`],
      { cwd: root, env },
    );
    expect(stdout).toBe('usage: cloudsvc <command> [options]\n');
    expect(stderr).toBe('');
  }, 30_000);
});
