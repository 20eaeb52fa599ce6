import { createConnection } from 'node:net';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { eventually } from './eventually.js';

// Kept apart from the test hosts (busy-guest.ts) so that the bench, compiled with the servers,
// can start the loop without the test runner's types.

/** How a busybox guest dirties its memory: a working set of `mib` MiB, rewritten at `mibPerS` (absent: flat out). */
export interface BusyLoop {
  readonly mib?: number;
  readonly mibPerS?: number;
}

/**
 * The loop typed into the guest's root shell: a file of `mib` MiB on a tmpfs (non-zero bytes, so
 * that QEMU cannot send the pages as zero pages) rewritten without pause, or at a set rate: every
 * tenth of a second the next tenth of `mibPerS` in 256 KiB blocks, going round the file (so that
 * each pass of a move finds new pages dirty, not the same ones again; a rate above the file's size
 * a second still dirties every page of it). The rate is nominal: the rewrite's own time comes on
 * top of the sleep.
 */
export function busyLoopCommand({ mib = 32, mibPerS }: BusyLoop): string {
  const setUp =
    `mkdir -p /busy && mount -t tmpfs -o size=${mib + 8}m busy /busy && ` +
    `yes cloudsvc | head -c ${mib * 1024 * 1024} >/busy/w && echo busy-$((6*7)) && `;
  if (mibPerS === undefined)
    return `${setUp}while :; do dd if=/busy/w of=/busy/w bs=1M conv=notrunc 2>/dev/null; done &\n`;
  const fileBlocks = mib * 4;
  const blocks = Math.min(fileBlocks, Math.max(1, Math.round((mibPerS * 4) / 10)));
  return (
    `${setUp}i=0; while :; do dd if=/busy/w of=/busy/w bs=256k count=${blocks} skip=$i seek=$i conv=notrunc 2>/dev/null; ` +
    `i=$(( (i + ${blocks}) % ${fileBlocks} )); sleep 0.1; done &\n`
  );
}

/**
 * Starts the busy loop in the guest whose directory is `guestDir`, over its serial console; resolves
 * once the file is written and the loop runs (`consoleText` reads what the guest printed).
 */
export async function startBusyLoop(guestDir: string, consoleText: () => string, loop: BusyLoop = {}) {
  await new Promise<void>((resolve, reject) => {
    const socket = createConnection(guestFiles(guestDir).consoleSocket);
    socket.once('error', reject);
    socket.once('connect', () => socket.end(busyLoopCommand(loop), () => resolve()));
  });
  // The shell computes the marker: it is on the console only once the loop is about to start.
  await eventually(() => consoleText().includes('busy-42') || undefined, 60_000, 'the busy loop');
}
