import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { eventually } from './eventually.js';

// Kept apart from the test hosts so that the bench, compiled with the servers, can read a guest's
// size without the test runner's types.

/** A guest's vCPUs and memory as the guest itself counts them (`nproc`, MemTotal in /proc/meminfo). */
export interface SeenSize {
  readonly cpus: number;
  readonly memoryKb: number;
}

/**
 * The size the busybox guest whose directory is `guestDir` sees: a line typed into its serial
 * console's shell, its answer read back from the console's log (`consoleText`); the typed line
 * echoes with `$(…)`, so it never matches the answer.
 */
export async function guestSeenSize(guestDir: string, consoleText: () => string): Promise<SeenSize> {
  const marker = randomUUID().slice(0, 8);
  const socket = createConnection(guestFiles(guestDir).consoleSocket);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.end(`echo "size-${marker} $(nproc) $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"\n`);
  const [, cpus, memoryKb] = await eventually(
    () => new RegExp(`^size-${marker} (\\d+) (\\d+)\\r?$`, 'm').exec(consoleText()) ?? undefined,
    20_000,
    'the guest to say its size',
  );
  return { cpus: Number(cpus), memoryKb: Number(memoryKb) };
}
