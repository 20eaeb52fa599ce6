import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { running } from '../support/stack-process.js';

/**
 * The stack's supervisor (`npm start`, `stack:prod`): a child that crashes is logged and started
 * again. Seen in a clean-clone CI run: an API process closed its standard output, then printed why
 * it failed on its standard error and exited; the log, ended with the first stream, refused the
 * second one's write, and the supervisor died of it, taking the whole production shape down.
 */
const data = mkdtempSync(join(tmpdir(), 'cloudsvc-children-'));
process.env.CLOUDSVC_DATA_DIR = data;
mkdirSync(join(data, 'logs'));
const { Children } = await import('../../scripts/start/children.js');
const children = new Children();
afterAll(async () => {
  await children.stop([]);
  rmSync(data, { recursive: true, force: true });
});

describe('the supervisor', () => {
  it('logs what a crashing child printed on both streams, after either closed, and starts it again', async () => {
    const marker = join(data, 'crashed-once');
    // First run: a line out, standard output closed, then the crash's message on standard error.
    const script = `if [ -e ${marker} ]; then echo 'running again'; exec sleep 60; fi
touch ${marker}; echo 'starting'; exec 1>&-; sleep 0.2; echo 'failed: port taken' >&2; exit 1`;
    children.run('flaky', 'sh', ['-c', script]);
    const log = join(data, 'logs', 'flaky.log');
    const text = await eventually(
      () => {
        const now = existsSync(log) ? readFileSync(log, 'utf8') : '';
        return now.includes('running again') ? now : undefined;
      },
      10_000,
      'the child started again',
    );
    expect(text.split('\n').filter(Boolean)).toEqual(['starting', 'failed: port taken', 'running again']);
  });

  it('ends its children when it is itself killed outright, leaving none behind', async () => {
    const children = fileURLToPath(new URL('../../scripts/start/children.ts', import.meta.url));
    const script = `import { Children } from ${JSON.stringify(children)};
const child = new Children().run('sleeper', 'sleep', ['60']);
console.log(child.pid);
setInterval(() => {}, 1000);`;
    const supervisor = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, CLOUDSVC_DATA_DIR: data },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(supervisor.stdout!, 'data')) as [Buffer];
    const child = Number(line.toString().trim());
    expect(running(child)).toBe(true);
    supervisor.kill('SIGKILL');
    await eventually(() => !running(child), 5_000, 'the child to end with its supervisor');
  });
});
