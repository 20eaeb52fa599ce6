/**
 * Console sessions with the zero-latency simulated driver through the reference gateway (run as a
 * process of its own, as deployed): from `POST …/console/session` to the first byte of the console
 * in the browser's WebSocket; from a revoke's request to the browser's socket closed; and the
 * gateway's resident memory holding a thousand idle, connected sessions.
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { createCredential } from '../db/repositories/accounts/credentials.js';
import { waitForPort } from '../platform/ports.js';
import { runningInstance } from './bench-instance.js';
import type { ApiRounds } from './parts/api-rounds.js';
import type { BenchStack } from './stack.js';

export interface ConsoleTimes {
  readonly firstByteMs: number[];
  readonly cutMs: number[];
  readonly idle: { sessions: number; rssMb: number; baselineMb: number } | undefined;
  readonly failures: string[];
}

/** A browser at the gateway: resolves at the console's first byte; `closed` at its socket's close. */
function browser(url: string, connectToken: string) {
  const socket = new WebSocket(url);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const firstByte = new Promise<void>((resolve, reject) => {
    socket.on('message', (_data, binary) => binary && resolve());
    socket.once('close', (code, reason) => reject(new Error(`closed ${code} ${String(reason)}`)));
  });
  socket.once('open', () => socket.send(JSON.stringify({ connect_token: connectToken })));
  firstByte.catch(() => undefined);
  return { socket, firstByte, closed };
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export async function runConsoleSessions(
  stack: BenchStack,
  input: ApiRounds & { idleSessions: number },
): Promise<ConsoleTimes> {
  const times = { firstByteMs: [] as number[], cutMs: [] as number[], failures: [] as string[] };
  const credential = (await createCredential(stack.db, { type: 'console_gateway', label: 'bench' })).token;
  const port = stack.ports.consoleGateway;
  const gateway = stack.launch('console-gateway/main.ts', {
    GATEWAY_PANEL_URL: input.apiUrl,
    GATEWAY_CREDENTIAL: credential,
    GATEWAY_PORT: String(port),
  });
  await waitForPort(port, 30_000, 'the console gateway');
  const url = `ws://127.0.0.1:${port}/connect`;
  const instance = (n: number) =>
    runningInstance(input.deps, {
      name: `bench-console-${n}`,
      userId: input.userId,
      locationId: input.locationId,
      hypervisorId: input.hypervisorId,
    });
  const call = async (instanceId: string, path: string) => {
    const response = await fetch(`${input.apiUrl}/api/client/cloud/${instanceId}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${input.clientKey}` },
    });
    return {
      status: response.status,
      body: (await response.json()) as { attributes: Record<string, string> },
    };
  };
  const open = async (instanceId: string) => {
    const made = await call(instanceId, '/console/session');
    if (made.status !== 201) throw new Error(`session: ${made.status}`);
    return { id: made.body.attributes.uuid!, b: browser(url, made.body.attributes.connect_token!) };
  };
  try {
    const measured = (await instance(0)).id;
    for (let round = 0; round < input.rounds; round++) {
      try {
        const t0 = performance.now();
        const { id, b } = await open(measured);
        await b.firstByte;
        times.firstByteMs.push(performance.now() - t0);
        const t1 = performance.now();
        await call(measured, `/console/sessions/${id}/revoke`);
        await b.closed;
        times.cutMs.push(performance.now() - t1);
      } catch (error) {
        times.failures.push((error as Error).message);
      }
    }
    const baselineMb = rssMb(gateway.pid!);
    const held: WebSocket[] = [];
    let idle: ConsoleTimes['idle'];
    try {
      // All on one instance: the bench's API allows it (MAX_CONSOLE_SESSIONS_PER_INSTANCE).
      const holder = (await instance(1)).id;
      for (let n = 0; n < input.idleSessions; n++) {
        const { b } = await open(holder);
        await b.firstByte;
        held.push(b.socket);
      }
      idle = { sessions: held.length, rssMb: rssMb(gateway.pid!), baselineMb };
    } catch (error) {
      times.failures.push(`idle sessions: ${(error as Error).message} after ${held.length}`);
    }
    for (const socket of held) socket.close();
    return { ...times, idle };
  } finally {
    await stack.kill(gateway);
  }
}
