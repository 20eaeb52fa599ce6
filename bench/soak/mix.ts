import { randomUUID } from 'node:crypto';
import { sshKeyLine } from '../../test/faults/load.js';
import { ending, migrateToOther } from '../../test/faults/migrations.js';
import type { SoakClient } from './client.js';

type Operation = (client: SoakClient, instance: string) => Promise<unknown>;

/**
 * The mix of client traffic, by weight: reads, writes that are rows only, and the operations a
 * hypervisor carries out (power actions, backups, an administrator's live migrations), each of
 * those timed from the request to its end.
 */
const MIX: readonly [weight: number, run: Operation][] = [
  [
    30,
    (client, instance) =>
      client.timed('show an instance', () =>
        client.ok(client.customer.GET('/{cloudInstance}', path(instance))),
      ),
  ],
  [
    10,
    (client) =>
      client.timed('list instances', () =>
        client.ok(client.customer.GET('/', { params: { query: { per_page: 50 } } })),
      ),
  ],
  [10, (client) => addAndRemoveKey(client)],
  [8, (client, instance) => powerCycle(client, instance)],
  [4, (client, instance) => client.timed('back up (request to done)', () => backUp(client, instance))],
  [3, (client, instance) => client.timed('migrate (request to CLEANED_UP)', () => migrate(client, instance))],
];

const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);

/** One operation of the mix, drawn by weight. */
export function pickByWeight(): Operation {
  let left = Math.random() * TOTAL_WEIGHT;
  for (const [weight, run] of MIX) {
    left -= weight;
    if (left < 0) return run;
  }
  return MIX[0]![1];
}

const path = (cloudInstance: string) => ({ params: { path: { cloudInstance } } });

async function addAndRemoveKey(client: SoakClient): Promise<void> {
  let id: string | undefined;
  await client.timed('add an SSH key', async () => {
    const body = { name: `soak-${randomUUID()}`, public_key: sshKeyLine() };
    id = (await client.ok(client.customer.POST('/ssh-keys', { body }))).attributes.uuid;
  });
  if (id)
    await client.timed('remove an SSH key', () =>
      client.ok(client.customer.DELETE('/ssh-keys/{keyUuid}', { params: { path: { keyUuid: id! } } })),
    );
}

async function powerCycle(client: SoakClient, instance: string): Promise<void> {
  for (const action of ['stop', 'start'] as const) {
    const done = await client.timed(`power ${action} (request to done)`, async () => {
      await client.ok(
        client.customer.POST('/{cloudInstance}/power', { ...path(instance), body: { action } }),
      );
      await client.ended(instance);
    });
    if (!done) return;
  }
}

async function backUp(client: SoakClient, instance: string): Promise<void> {
  await client.ok(client.customer.POST('/{cloudInstance}/backups', { ...path(instance), body: {} }));
  await client.ended(instance);
}

async function migrate(client: SoakClient, instance: string): Promise<void> {
  const migration = await migrateToOther(client.shape, instance);
  const state = await ending(client.shape, migration.id);
  if (state !== 'CLEANED_UP') throw new Error(`the migration ended ${state}`);
}
