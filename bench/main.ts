/**
 * `npm run bench`: prints the figures of the performance targets, one part after another.
 *  1. show: show-instance, cloudsvc against a raw node:http + pg baseline doing the same
 *     primary-key read with the same pool size, under an external generator (wrk; the bench's own
 *     when it is missing), in at least 5 alternating rounds: peak requests/s (closed loop), then
 *     p50/p99 at half of each one's peak (fixed rate, coordinated omission counted), each figure
 *     with the server's CPU per request and event-loop delay. Target: >= 0.85x the baseline's
 *     requests/s, p99 at half peak <= 2x the baseline's (show-instance.ts).
 *  2. agent: agent task round trip with a zero-latency driver, with its stages (queued, picked up,
 *     started, finished, seen by the workflow). Target: p50 <= 25 ms, p99 <= 100 ms
 *     (agent-round-trip.ts).
 *  3. power: alternating stop/start on one instance through the API, zero-latency driver,
 *     request to settled. Target: p50 <= 100 ms, p99 <= 300 ms, no failures.
 *  4. provision: instances created one after another through the API, zero-latency driver,
 *     `POST /` to `running`; deleted through the API at the end. Target: p50 <= 300 ms.
 *  5. migration: live moves of one instance between two hypervisors, zero-latency driver, request
 *     to COMPLETED. Target: p50 <= 1 s.
 *  6. backup: on one instance, a backup through the API, then a restore in place from it, each
 *     request to settled, zero-latency driver (BENCH_BACKUPS rounds).
 *  7. qemu: real guests (qemu-guests.ts), with QEMU and the guest image (skipped, said so,
 *     without): create to running of a 128 MB guest, and its live migrations' total time, memory
 *     move and downtime, between two agents with the QEMU driver (BENCH_QEMU_CREATES,
 *     BENCH_QEMU_MIGRATIONS), under the accelerator the probe chooses (printed).
 *  8. network: on one instance, an address attach and a firewall apply through the API, request to
 *     applied on the agent, zero-latency driver (BENCH_NETWORK rounds). Target: p50 <= 150 ms,
 *     p99 <= 400 ms, no failures (network-changes.ts).
 *  9. storage: on one instance, a root disk grow, and on another a volume attach (detached again
 *     between rounds), through the API, request to applied on the agent, zero-latency driver
 *     (BENCH_STORAGE rounds each). Target: p50 <= 150 ms, p99 <= 400 ms, no failures
 *     (disk-grows.ts, volume-attaches.ts).
 * 10. admin: the overview and a scheduler dry-run, one request at a time, over 500 online
 *     hypervisors in one location and 10,000 instances with their reservations (BENCH_ADMIN_*).
 *     Target: p50 <= 50 ms and p99 <= 150 ms each (admin-reads.ts).
 * 11. console: console sessions through the reference gateway (a process of its own), zero-latency
 *     simulated console: session create to the console's first byte in the browser's socket
 *     (target p50 <= 300 ms), a revoke to the browser's socket closed (target <= 2 s), and the
 *     gateway's resident memory with BENCH_CONSOLE_IDLE (1,000) idle connected sessions (target
 *     < 150 MB); BENCH_CONSOLE rounds (console-sessions.ts).
 * 12. evacuation: BENCH_EVACUATION_INSTANCES (100) instances of BENCH_EVACUATION_DISK_GB (2) drained
 *     off one node to BENCH_EVACUATION_TARGETS (5) targets, BENCH_EVACUATION_PER_TARGET (2) moves
 *     into each at once, by agents whose simulated transfers take BENCH_EVACUATION_MS_PER_GB
 *     (10,240: 100 MB/s, what the preflight's estimate assumes) per GB: wall time against the ideal, the total transfer time over the parallelism. Target:
 *     within 10% (parts/evacuation.ts, evacuations.ts).
 * 13. admin-pages: the admin pages over BENCH_PAGES_MIGRATIONS (10,000) migrations with their
 *     histories, signed in through the login form: the list (first page, one hypervisor, a state and
 *     a day, page 200) and two views, BENCH_PAGES_READS (100) requests each, one at a time. Target:
 *     p50 <= 100 ms of server time (the pages' Server-Timing) each (admin-pages.ts).
 * 14. convergence: real guests (as 7) dirtying memory at 0, ½ and 2× a 168 Mbit/s cap, each moved
 *     live under the default policy, auto-converge and post-copy after the timeout: outcome, total
 *     time, live step and QEMU's downtime in a table beside the targets (downtime <= max_downtime_ms;
 *     a move given up ends within its completion timeout + 10 s) (convergence-moves.ts).
 * 15. resize: plan changes through the Application API, request to applied: BENCH_RESIZES (50)
 *     rounds of a hot grow and a cold shrink back on one instance, zero-latency driver (target: hot
 *     p50 <= 300 ms, no failures), then one hot grow and one cold shrink of a real guest (as 7),
 *     with the size the guest sees over its console (resizes.ts, qemu-resizes.ts).
 * 16. rdns: reverse DNS changes on one address through the Client API, request to the new name
 *     answered to a PTR query by a real PowerDNS on loopback, BENCH_RDNS (50) rounds through its HTTP
 *     API and as many by RFC 2136 updates signed with TSIG (skipped, said so, without PowerDNS).
 *     Target: p50 and p99 <= 2 s each, no failures (reverse-dns.ts).
 * 17. events: outbound events (webhook-deliveries.ts, outbox-throughput.ts): BENCH_EVENTS (200)
 *     suspensions set or lifted one at a time, commit → delivered to a local receiver that verifies
 *     each signature, through a worker process's relay and webhook activities (target: p50 <= 250 ms);
 *     then changes offered at BENCH_EVENTS_RATES a second (10, 25, 50, 100, 200, 400) for
 *     BENCH_EVENTS_STEP_S (10) each, up to the first whose backlog grows: events a second sustained,
 *     with the worker's CPU.
 * 18. images: a BENCH_IMAGE_MB (256) MB raw image version served by a local HTTP server, fetched at once
 *     by BENCH_IMAGE_AGENTS (2) simulated agents through its distribution (the agent's own fetcher,
 *     checksum verified): MB/s per hypervisor, version added to copy ready, and together
 *     (image-fetches.ts).
 * 19. usage: a month of usage history of BENCH_USAGE_USERS (100) customers of
 *     BENCH_USAGE_INSTANCES_PER_USER (100) instances each, written by the tables' triggers; its hours
 *     closed by the closing service (wall and this process's CPU per hour, per 10,000 instances),
 *     for BENCH_USAGE_CLOSE_S (300) at most; then one customer's month read through the API as CSV
 *     and as JSON pages. Target: <= 2 s (usage-history.ts, usage-reads.ts).
 * BENCH_PARTS (e.g. `power` or `show,agent`) runs some parts only; all by default. A part that
 * fails prints why and the bench goes on to the next; the exit code has bit N-1 set for each part N
 * that failed (qemu alone: 64), and the last line names them.
 * It uses PostgreSQL at DATABASE_URL (default: the local server), in a database of its own that
 * it drops at the end, and a Temporal dev server of its own (stack.ts).
 */
import { adminPart } from './parts/admin.js';
import { adminPagesPart } from './parts/admin-pages.js';
import { agentPart } from './parts/agent.js';
import { backupPart } from './parts/backup.js';
import { consolePart } from './parts/console.js';
import { convergencePart } from './parts/convergence.js';
import { evacuationPart } from './parts/evacuation.js';
import { eventsPart } from './parts/events.js';
import { imagesPart } from './parts/images.js';
import { migrationPart } from './parts/migration.js';
import { networkPart } from './parts/network.js';
import { powerPart } from './parts/power.js';
import { CREATE_WARM_UP, CREATES, provisionPart } from './parts/provision.js';
import { qemuPart } from './parts/qemu.js';
import { rdnsPart } from './parts/rdns.js';
import { resizePart } from './parts/resize.js';
import { showPart } from './parts/show.js';
import { storagePart } from './parts/storage.js';
import { usagePart } from './parts/usage.js';
import { hypervisorSizeFor } from './provisioning.js';
import { type BenchStack, startBenchStack } from './stack.js';

const PARTS: readonly { name: string; run: (stack: BenchStack) => Promise<void> }[] = [
  { name: 'show', run: showPart },
  { name: 'agent', run: agentPart },
  { name: 'power', run: powerPart },
  { name: 'provision', run: provisionPart },
  { name: 'migration', run: migrationPart },
  { name: 'backup', run: backupPart },
  { name: 'qemu', run: qemuPart },
  { name: 'network', run: networkPart },
  { name: 'storage', run: storagePart },
  // Last: its large plane would weigh on the parts above.
  { name: 'admin', run: adminPart },
  { name: 'console', run: consolePart },
  { name: 'evacuation', run: evacuationPart },
  { name: 'admin-pages', run: adminPagesPart },
  { name: 'convergence', run: convergencePart },
  { name: 'resize', run: resizePart },
  { name: 'rdns', run: rdnsPart },
  { name: 'events', run: eventsPart },
  { name: 'images', run: imagesPart },
  { name: 'usage', run: usagePart },
];
const names = PARTS.map((p) => p.name);
const chosen = new Set((process.env.BENCH_PARTS ?? names.join(',')).split(',').map((p) => p.trim()));
for (const part of chosen)
  if (!names.includes(part))
    throw new Error(`BENCH_PARTS: unknown part ${part} (parts: ${names.join(', ')})`);
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs the chosen parts; a part's failure is printed and the next part runs. */
async function main(): Promise<string[]> {
  const stack = await startBenchStack(
    serverUrl,
    hypervisorSizeFor(chosen.has('provision') ? CREATE_WARM_UP + CREATES : 0, {
      cpuCores: 8,
      memoryMb: 8192,
      diskMb: 100_000,
    }),
  );
  const failed: string[] = [];
  try {
    for (const part of PARTS) {
      if (!chosen.has(part.name)) continue;
      try {
        await part.run(stack);
      } catch (error) {
        failed.push(part.name);
        console.log(`${part.name}: FAILED, ${(error as Error).stack ?? error}`);
      }
    }
  } finally {
    await stack.close();
  }
  return failed;
}

const failed = await main().catch((error: Error) => {
  console.log(`bench: the stack did not start: ${error.stack ?? error}`);
  return [...chosen];
});
const code = failed.reduce((bits, name) => bits | (1 << names.indexOf(name)), 0);
if (failed.length > 0) console.log(`bench: parts that failed: ${failed.join(', ')} (exit ${code})`);
process.exit(code);
