/**
 * One operation of the scale bench's concurrent runs, through the Client API as a customer sends
 * it, timed from the request to its instance settled (settle-watcher.ts).
 */
import { randomUUID } from 'node:crypto';
import type { BenchStack } from '../stack.js';
import { IMAGE, type OperationsPlane, PLAN } from './operations-plane.js';
import type { SettleWatcher } from './settle-watcher.js';

const SETTLE_LIMIT_MS = 60_000;

export interface Outcome {
  readonly ms: number;
  readonly failure: string | undefined;
}

async function post(url: string, key: string, body: unknown): Promise<{ status: number; text: string }> {
  const reply = await fetch(url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'X-Request-Id': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  return { status: reply.status, text: await reply.text() };
}

const refusal = (reply: { status: number; text: string }) =>
  `${reply.status} ${/"code":"([^"]+)"/.exec(reply.text)?.[1] ?? ''}`.trim();

/** One order through the Client API, to its instance `running`. */
export async function create(
  stack: BenchStack,
  plane: OperationsPlane,
  watcher: SettleWatcher,
  i: number,
): Promise<Outcome & { instance?: { id: string; key: string } }> {
  const started = performance.now();
  const key = plane.keys[i % plane.keys.length]!;
  const reply = await post(`${stack.apiUrl}/api/client/cloud`, key, {
    hostname: `scale-${i}.example.test`,
    plan: PLAN.code,
    image: IMAGE.code,
    location: plane.locationCode,
  });
  if (reply.status !== 202) return { ms: 0, failure: `create: ${refusal(reply)}` };
  const instanceId = (JSON.parse(reply.text) as { attributes: { uuid: string } }).attributes.uuid;
  const status = await watcher.settled(instanceId, SETTLE_LIMIT_MS);
  const failure = status === 'running' ? undefined : `create: ${status ?? 'not settled'}`;
  return { ms: performance.now() - started, failure, instance: { id: instanceId, key } };
}

/** One power action on a slot's instance, the opposite of the status it is in, to settled. */
export async function power(
  stack: BenchStack,
  instance: { id: string; key: string; running: boolean },
  watcher: SettleWatcher,
): Promise<Outcome> {
  const action = instance.running ? 'stop' : 'start';
  const started = performance.now();
  const reply = await post(`${stack.apiUrl}/api/client/cloud/${instance.id}/power`, instance.key, { action });
  if (reply.status !== 202) return { ms: 0, failure: `${action}: ${refusal(reply)}` };
  const status = await watcher.settled(instance.id, SETTLE_LIMIT_MS);
  instance.running = status === 'running';
  const expected = action === 'stop' ? 'stopped' : 'running';
  return {
    ms: performance.now() - started,
    failure: status === expected ? undefined : `${action}: ${status ?? 'not settled'}`,
  };
}
