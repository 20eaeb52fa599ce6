import { runConsoleSessions } from '../console-sessions.js';
import type { BenchStack } from '../stack.js';
import { failureVerdict, latencyVerdict, withApiRounds } from './api-rounds.js';

const CONSOLE_ROUNDS = Number(process.env.BENCH_CONSOLE ?? 50);
const IDLE_SESSIONS = Number(process.env.BENCH_CONSOLE_IDLE ?? 1000);

/** 11. Console sessions through the reference gateway: first byte, revocation cut, idle memory. */
export async function consolePart(stack: BenchStack): Promise<void> {
  const times = await withApiRounds(stack, 'console', CONSOLE_ROUNDS, (input) =>
    runConsoleSessions(stack, { ...input, idleSessions: IDLE_SESSIONS }),
  );
  const failures = failureVerdict(times.failures);
  console.log(
    `console sessions (${CONSOLE_ROUNDS} rounds, zero-latency simulated console, the gateway a process of its ` +
      `own): session create to first byte ${latencyVerdict(times.firstByteMs, { p50: 300, p99: 1000 })}; ` +
      `revoke to the browser cut ${latencyVerdict(times.cutMs, { p50: 2000, p99: 2000 })}; ${failures.line}`,
  );
  if (times.idle) {
    const met = times.idle.rssMb < 150 ? 'met' : 'NOT met';
    console.log(
      `console gateway resident memory with ${times.idle.sessions} idle connected sessions: ` +
        `${times.idle.rssMb.toFixed(1)} MB (target < 150: ${met}; ${times.idle.baselineMb.toFixed(1)} MB before them)`,
    );
  }
  for (const line of failures.details) console.log(line);
}
