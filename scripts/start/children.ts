import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { diesWithParent } from '../../platform/parent-death.js';
import { env, logs, root, say } from './settings.js';

/** The first wait before a crashed child is started again; it doubles up to the last. */
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
/** A child that ran this long before it crashed starts its backoff over. */
const STEADY_MS = 60_000;

/** What a child runs: a program, its arguments and its environment beyond the stack's. */
interface Command {
  readonly program: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
}

interface Supervised {
  readonly name: string;
  readonly command: Command;
  child: ChildProcess;
  crashes: number;
}

/**
 * The stack's processes (worker, API, agents, and in the production shape the Temporal server and
 * the proxy), each logging to logs/<name>.log. A child that exits while the stack runs is logged
 * and started again after a backoff, so that one crash does not take the whole stack down (a
 * supervisor's work: systemd's `Restart=`, compose's `restart:`); `stop` ends them in order.
 */
export class Children {
  readonly #all: Supervised[] = [];
  #stopping = false;

  /** A `tsx` entry point of this repository (`worker/main.ts`). */
  launch(name: string, entry: string, childEnv: Record<string, string>): ChildProcess {
    return this.run(name, process.execPath, ['--import', 'tsx', join(root, entry)], childEnv);
  }

  /** Any program; the child running now is the answer (a restart makes another). */
  run(
    name: string,
    program: string,
    args: readonly string[],
    childEnv: Record<string, string> = {},
  ): ChildProcess {
    const command = { program, args, env: childEnv };
    const supervised: Supervised = { name, command, child: this.#spawn(name, command), crashes: 0 };
    this.#all.push(supervised);
    this.#watch(supervised);
    return supervised.child;
  }

  #spawn(name: string, command: Command): ChildProcess {
    const log = createWriteStream(join(logs, `${name}.log`), { flags: 'a' });
    // Sent SIGTERM if the supervisor itself dies without stopping it (a SIGKILL): no orphan.
    const tied = diesWithParent(command.program, command.args);
    const child = spawn(tied.program, tied.args, {
      cwd: root,
      env: { ...env, ...command.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Both streams write into one log, which ends once the child and both streams have closed: the
    // one to close first must not end it while the other (a crash's message) still writes.
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    child.once('close', () => log.end());
    // A log that cannot be written must not take the supervisor, and every other child, down.
    log.on('error', (error) => say(`${name}: its log could not be written (${error.message})`));
    return child;
  }

  #watch(supervised: Supervised): void {
    const startedAt = Date.now();
    supervised.child.once('exit', (code, signal) => {
      if (this.#stopping) return;
      if (Date.now() - startedAt > STEADY_MS) supervised.crashes = 0;
      const delay = BACKOFF_MS[Math.min(supervised.crashes, BACKOFF_MS.length - 1)]!;
      supervised.crashes += 1;
      say(
        `${supervised.name} exited (${signal ?? code}); starting it again in ${delay / 1000} s ` +
          `(see ${join(logs, `${supervised.name}.log`)})`,
      );
      setTimeout(() => {
        if (this.#stopping) return;
        supervised.child = this.#spawn(supervised.name, supervised.command);
        this.#watch(supervised);
      }, delay);
    });
  }

  /** Ends the children named in `order` one after the other (SIGTERM, SIGKILL after 10 s), then the rest. */
  async stop(order: readonly string[]): Promise<void> {
    this.#stopping = true;
    const ordered = [...this.#all].sort((a, b) => rank(order, a.name) - rank(order, b.name));
    for (const { child } of ordered) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      await Promise.race([
        new Promise((r) => child.once('exit', r)),
        new Promise((r) => setTimeout(r, 10_000)),
      ]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }

  /** Ends every child at once (a second Ctrl-C). */
  kill(): void {
    this.#stopping = true;
    for (const { child } of this.#all) child.kill('SIGKILL');
  }
}

const rank = (order: readonly string[], name: string) => {
  const at = order.indexOf(name);
  return at === -1 ? order.length : at;
};
