/**
 * Outbound events, change to delivered (docs/events.md "Delivery"): a worker process as production
 * runs it (its outbox relay every WEBHOOK_RELAY_INTERVAL_MS, its webhook activities), probed for
 * its CPU, on a task queue of its own; a plane endpoint for `instance.suspended` and
 * `instance.unsuspended` at a receiver on loopback that verifies every delivery with the
 * `standardwebhooks` library (test/support/webhook-receiver.ts); and instances of the part's own
 * whose suspension the bench sets and lifts through the repository, each a committed change whose
 * event the outbox's trigger writes in its transaction.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createDatabase, type Database } from '../db/database.js';
import { insertEndpointWithin } from '../db/repositories/events/webhook-endpoints.js';
import { clearSuspension, markSuspended } from '../db/repositories/instances/instance-suspension.js';
import { insertInstance } from '../db/repositories/instances/instances.js';
import { CURRENT_API_VERSION } from '../domain/api-versions/versions.js';
import { generateWebhookSecret, secretBox } from '../platform/secrets.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/support/webhook-receiver.js';
import type { BenchStack } from './stack.js';

export interface EventBench {
  readonly receiver: WebhookReceiver;
  readonly worker: ChildProcess;
  readonly db: Database;
  /** Sets or lifts the suspension of instance `i` (of `instances`): one committed change, one event. */
  change(i: number): Promise<void>;
  readonly instances: number;
  /** When each instance's changes committed (Date.now), oldest first, not yet matched to a delivery. */
  readonly committed: Map<string, number[]>;
  readonly changes: () => number;
  /** The first delivery of each webhook-id, matched to its change (per stream, in order): latencies in ms. */
  latencies(): { latencies: number[]; duplicates: number };
  close(): Promise<void>;
}

export async function startEventBench(stack: BenchStack, instances: number): Promise<EventBench> {
  const receiver = await startWebhookReceiver();
  const worker = stack.launch(
    'worker/main.ts',
    {
      ...stack.env,
      TEMPORAL_TASK_QUEUE: `bench-events-${randomUUID()}`,
      // Any free port for its probes, no SDK metrics: the API's ports are the stack's.
      PORT: '0',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    },
    { probed: true },
  );
  const pool = createDatabase({
    url: stack.databaseUrl,
    poolSize: 6,
    namedStatements: true,
    applicationName: 'bench-events',
  });
  const secret = generateWebhookSecret();
  receiver.trust(secret);
  await pool.db.transaction().execute((trx) =>
    insertEndpointWithin(
      trx,
      {
        owner: 'plane',
        url: receiver.url('/bench'),
        description: 'bench',
        eventTypes: ['instance.suspended', 'instance.unsuspended'],
        enabled: true,
        secretSealed: secretBox(stack.env.SECRETS_KEY).seal(secret),
        apiVersion: CURRENT_API_VERSION,
      },
      100,
    ),
  );
  const ids: string[] = [];
  for (let i = 0; i < instances; i++)
    ids.push(
      (
        await insertInstance(pool.db, {
          user_id: stack.user.id,
          location_id: stack.location.id,
          name: `bench-events-${i}`,
          hostname: `bench-events-${i}.example.test`,
          status: 'running',
          cpu_cores: 1,
          memory_mb: 512,
          disk_mb: 2048,
          primary_ipv4: null,
          primary_ipv6: null,
          virtualization: 'kvm',
          boot_order: JSON.stringify(['disk']),
        })
      ).id,
    );
  const suspended = new Set<string>();
  const committed = new Map<string, number[]>(ids.map((id) => [id, []]));
  let changes = 0;

  return {
    receiver,
    worker,
    db: pool.db,
    instances,
    committed,
    changes: () => changes,
    async change(i) {
      const id = ids[i % ids.length]!;
      const changed = suspended.has(id)
        ? await clearSuspension(pool.db, id)
        : await markSuspended(pool.db, id);
      if (!changed) throw new Error(`instance ${id}: the suspension did not change`);
      committed.get(id)!.push(Date.now());
      if (suspended.has(id)) suspended.delete(id);
      else suspended.add(id);
      changes++;
    },
    latencies() {
      const seen = new Set<string>();
      const latencies: number[] = [];
      let duplicates = 0;
      const pending = new Map([...committed].map(([id, times]) => [id, [...times]]));
      for (const { headers, raw, status, at } of receiver.received) {
        if (status >= 300) continue;
        const webhookId = String(headers['webhook-id']);
        if (seen.has(webhookId)) {
          duplicates++;
          continue;
        }
        seen.add(webhookId);
        const uuid = (JSON.parse(raw) as { data: { object: { attributes: { uuid: string } } } }).data.object
          .attributes.uuid;
        const at0 = pending.get(uuid)?.shift();
        if (at0 !== undefined) latencies.push(at - at0);
      }
      return { latencies, duplicates };
    },
    async close() {
      await stack.kill(worker);
      await receiver.close();
      await pool.close();
    },
  };
}
