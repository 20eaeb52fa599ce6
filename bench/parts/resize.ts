import { randomUUID } from 'node:crypto';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { insertUser } from '../../db/repositories/accounts/users.js';
import { quantiles } from '../backups.js';
import { benchQemuResizes, type QemuResizeRow } from '../qemu-resizes.js';
import { runSimulatedResizes } from '../resizes.js';
import type { BenchStack } from '../stack.js';
import { withApiRounds } from './api-rounds.js';

const RESIZE_ROUNDS = Number(process.env.BENCH_RESIZES ?? 50);
/** Rounds before the measured ones: connections, prepared statements and JIT, as the other parts warm up. */
const RESIZE_WARM_UP = 2;
const HOT_P50_TARGET_MS = 300;

/**
 * 15. Plan changes through the Application API: hot grows and cold shrinks on the zero-latency
 * driver (target: hot p50 <= 300 ms), then one of each on a real guest (QEMU; skipped, said so,
 * without), in one table.
 */
export async function resizePart(stack: BenchStack): Promise<void> {
  const admin = await insertUser(stack.db, {
    email: `bench-resize-${randomUUID()}@example.test`,
    name: 'Bench admin',
    isAdmin: true,
  });
  const adminKey = (await createCredential(stack.db, { type: 'application', userId: admin.id })).token;
  const simulated = await withApiRounds(stack, 'resize', RESIZE_ROUNDS, (input) =>
    runSimulatedResizes({ ...input, adminKey, warmUp: RESIZE_WARM_UP }),
  );
  const workflows = await stack.workflows();
  const poll = stack.pollDatabase('resize-qemu');
  let real: QemuResizeRow[] | undefined;
  try {
    real = await benchQemuResizes({
      deps: workflows.deps(),
      db: stack.db,
      pollDb: poll.db,
      apiUrl: stack.apiUrl,
      locationId: stack.location.id,
      userId: stack.user.id,
      launch: stack.launch,
      adminKey,
    });
  } finally {
    await poll.close();
  }

  const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(0));
  const hot = quantiles(simulated.hotMs);
  const cold = quantiles(simulated.coldMs);
  const header = [
    'driver',
    'change',
    'mode',
    'rounds',
    'applied p50 ms',
    'applied p99 ms',
    'booted ms',
    'guest sees ms',
    'boots',
    'target',
    'met',
  ];
  const cells: string[][] = [
    [
      'simulated',
      '1 → 2 vCPUs, 512 → 768 MB',
      'hot',
      String(simulated.hotMs.length),
      ms(hot.p50),
      ms(hot.p99),
      '-',
      '-',
      '-',
      `p50 ≤ ${HOT_P50_TARGET_MS} ms, no failures`,
      hot.p50 <= HOT_P50_TARGET_MS && simulated.failures.length === 0 ? 'yes' : 'NO',
    ],
    [
      'simulated',
      '2 → 1 vCPUs, 768 → 512 MB',
      'cold',
      String(simulated.coldMs.length),
      ms(cold.p50),
      ms(cold.p99),
      '-',
      '-',
      '-',
      '-',
      '-',
    ],
    ...(real ?? []).map((r) => [
      'QEMU',
      r.change,
      r.mode,
      '1',
      ms(r.appliedMs),
      '-',
      ms(r.bootedMs),
      ms(r.seenMs) + (r.seen ? ` (${r.seen.cpus} vCPUs, ${Math.round(r.seen.memoryKb / 1024)} MiB)` : ''),
      String(r.boots),
      r.mode === 'hot' ? 'no boot, guest sees it' : 'one boot, guest sees it',
      r.failure === undefined && r.boots === (r.mode === 'hot' ? 0 : 1) ? 'yes' : 'NO',
    ]),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `plan changes through the Application API (simulated: ${RESIZE_ROUNDS} rounds of a hot grow and a cold shrink ` +
      `on one instance after ${RESIZE_WARM_UP} warm-up, zero-latency driver; request → applied = the instance ` +
      'settled at the size asked and its operation succeeded in that mode, polled every 2 ms' +
      `${real ? '; QEMU: one 128 MB guest booted with room to 2 vCPUs and 512 MB, the size it sees read over its serial console' : ''}):`,
  );
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const c of cells) console.log(line(c));
  console.log(`  simulated failures: ${simulated.failures.length} (a failed round ends the rounds)`);
  for (const failure of new Set(simulated.failures)) console.log(`  failed (simulated): ${failure}`);
  for (const r of real ?? []) if (r.failure) console.log(`  failed (QEMU ${r.mode}): ${r.failure}`);
}
