import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { guestsLeft, guestsLeftNotice } from '../../scripts/start/guests-left.js';
import { eventually } from '../support/eventually.js';
import { running } from '../support/stack-process.js';

/**
 * What npm start says at its stop of the real guests it leaves running: each one, and the command
 * that ends exactly them. The guests are stand-ins found as the agent finds its own (a pid file,
 * and a process whose command line names the guest's QMP socket): booting QEMU is test/qemu's.
 */
const data = mkdtempSync(join(tmpdir(), 'cloudsvc-guests-left-'));
const processes: ChildProcess[] = [];
afterAll(() => {
  for (const child of processes) child.kill('SIGKILL');
});

function standInGuest(folder: string): number {
  mkdirSync(folder, { recursive: true });
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', guestFiles(folder).qmp], {
    stdio: 'ignore',
  });
  processes.push(child);
  writeFileSync(guestFiles(folder).pid, `${child.pid}\n`);
  return child.pid!;
}

describe("the guests npm start's stop leaves running", () => {
  it('are named with their pids, and the command it gives ends exactly them', async () => {
    const first = standInGuest(join(data, 'agent', 'guests', 'instance-1'));
    const arrived = standInGuest(join(data, 'agent-2', 'incoming', 'migration-1'));
    // A pid file whose process is gone, and another process that is no guest of this folder.
    mkdirSync(join(data, 'agent', 'guests', 'instance-2'));
    writeFileSync(guestFiles(join(data, 'agent', 'guests', 'instance-2')).pid, '999999\n');
    const bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
    processes.push(bystander);

    const left = guestsLeft(data);
    expect(left.map((g) => g.pid).sort()).toEqual([first, arrived].sort());
    const notice = guestsLeftNotice(left)!;
    expect(notice).toContain(`${join(data, 'agent', 'guests', 'instance-1')} (pid ${first})`);
    expect(notice).toContain(`${join(data, 'agent-2', 'incoming', 'migration-1')} (pid ${arrived})`);
    const command = /To end exactly them: (kill [\d ]+)$/.exec(notice)?.[1];
    expect(command).toBeDefined();
    execSync(command!);
    await eventually(() => !running(first) && !running(arrived), 5_000, 'the guests to end');
    expect(running(bystander.pid!)).toBe(true);
    expect(guestsLeft(data)).toEqual([]);
    expect(guestsLeftNotice([])).toBeUndefined();
  });
});
