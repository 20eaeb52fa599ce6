import { spawnSync } from 'node:child_process';

let setprivAnswers: boolean | undefined;

/**
 * The command that runs `program` so that it is sent `signal` when the process that started it
 * ends, however it ends (a SIGKILL included): Linux's parent-death signal, set by util-linux's
 * `setpriv`, which then runs the program in its own place (same process, same pid). A stack's
 * children so never outlive their supervisor. Without setpriv, the program as it is.
 */
export function diesWithParent(
  program: string,
  args: readonly string[],
  signal: 'TERM' | 'INT' = 'TERM',
): { program: string; args: string[] } {
  setprivAnswers ??= spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!setprivAnswers) return { program, args: [...args] };
  return { program: 'setpriv', args: ['--pdeathsig', signal, '--', program, ...args] };
}

/**
 * Calls `stop` once the process that started this one has ended (this one is then another's
 * child: init's, or a subreaper's), whatever ended it: a process manager's SIGTERM to `npm`,
 * which some npm versions do not pass on, or a SIGKILL. Checked every half second.
 */
export function stopWhenOrphaned(stop: (parent: number) => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop(parent);
  }, 500);
  timer.unref();
}
