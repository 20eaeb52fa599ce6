import { freePort, waitForPort } from '../../platform/ports.js';
import { benchShowInstance } from '../show-instance.js';
import type { BenchStack } from '../stack.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CLIENTS = 32;

/**
 * 1. Show-instance against the baseline: both servers up, measured in alternating rounds so that a
 * noisy moment on the machine does not land on one side only; medians reported.
 */
export async function showPart(stack: BenchStack): Promise<void> {
  const basePort = await freePort();
  const baseline = stack.launch(
    'bench/baseline-server.ts',
    { ...stack.env, PORT: String(basePort), BENCH_OWNER_ID: stack.user.id },
    { probed: true },
  );
  try {
    await waitForPort(basePort, 30_000, 'baseline server');
    await benchShowInstance(
      [
        {
          label: 'baseline',
          child: baseline,
          target: { port: basePort, path: `/instances/${stack.instance.id}`, headers: {} },
        },
        {
          label: 'cloudsvc',
          child: stack.api,
          target: {
            port: stack.apiPort,
            path: `/api/client/cloud/${stack.instance.id}`,
            headers: { Authorization: `Bearer ${stack.key}` },
          },
        },
      ],
      { rounds: ROUNDS, seconds: SECONDS, clients: CLIENTS, warmUpSeconds: 10 },
    );
  } finally {
    await stack.kill(baseline);
  }
}
