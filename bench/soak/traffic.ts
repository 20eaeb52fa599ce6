import { randomUUID } from 'node:crypto';
import { sshKeyLine } from '../../test/faults/load.js';
import { eventually } from '../../test/support/eventually.js';
import type { ProdShape } from '../../test/support/prod-shape/shape.js';

/** Every try of one operation: how long each took, and why each that failed did. */
export interface OperationTally {
  readonly ms: number[];
  readonly failures: string[];
}

export type Tallies = Map<string, OperationTally>;

/**
 * The mix of client traffic, by weight: reads, writes that are rows only, and the operations a
 * hypervisor carries out (power actions, backups, an administrator's migrations), each of those
 * timed from the request to its end. An operation takes an instance no other is using, so that
 * none is refused for another's sake.
 */
const MIX: readonly [weight: number, run: (soak: Soak, instance: string) => Promise<unknown>][] = [
  [
    30,
    (soak, instance) =>
      soak.timed('show an instance', () => soak.ok(soak.customer.GET('/{cloudInstance}', path(instance)))),
  ],
  [
    10,
    (soak) =>
      soak.timed('list instances', () =>
        soak.ok(soak.customer.GET('/', { params: { query: { per_page: 50 } } })),
      ),
  ],
  [10, (soak) => addAndRemoveKey(soak)],
  [8, (soak, instance) => powerCycle(soak, instance)],
  [4, (soak, instance) => soak.timed('back up (request to done)', () => backUp(soak, instance))],
  [3, (soak, instance) => soak.timed('migrate (request to CLEANED_UP)', () => migrate(soak, instance))],
];

const path = (cloudInstance: string) => ({ params: { path: { cloudInstance } } });

const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);

/** One operation of the mix, drawn by weight. */
function pickByWeight() {
  let left = Math.random() * TOTAL_WEIGHT;
  for (const [weight, run] of MIX) {
    left -= weight;
    if (left < 0) return run;
  }
  return MIX[0]![1];
}

/** The soak's clients: each picks an operation by weight and a free instance, one after another. */
export class Soak {
  readonly tallies: Tallies = new Map();
  readonly #free: string[];
  #stopping = false;

  constructor(
    readonly shape: ProdShape,
    instances: readonly string[],
  ) {
    this.#free = [...instances];
  }

  get customer() {
    return this.shape.customer;
  }

  /** Runs `clients` loops until `stop()`. */
  async run(clients: number): Promise<void> {
    await Promise.all(Array.from({ length: clients }, () => this.#loop()));
  }

  stop(): void {
    this.#stopping = true;
  }

  async #loop(): Promise<void> {
    while (!this.#stopping) {
      const operation = pickByWeight();
      const instance = this.#free.splice(Math.floor(Math.random() * this.#free.length), 1)[0];
      if (!instance) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      try {
        await operation(this, instance);
      } finally {
        this.#free.push(instance);
      }
    }
  }

  /** Times `work` under `name`; a failure is tallied with its reason, not thrown. */
  async timed(name: string, work: () => Promise<unknown>): Promise<boolean> {
    const tally = this.tallies.get(name) ?? { ms: [], failures: [] };
    this.tallies.set(name, tally);
    const started = performance.now();
    try {
      await work();
      tally.ms.push(performance.now() - started);
      return true;
    } catch (error) {
      tally.failures.push((error as Error).message);
      return false;
    }
  }

  /** Throws unless the answer is a success; resolves with its body. */
  async ok<T>(answer: Promise<{ data?: T; response: Response; error?: unknown }>): Promise<T> {
    const { data, response, error } = await answer;
    if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(error).slice(0, 200)}`);
    return data as T;
  }

  /** Resolves once the instance's latest operation has ended; throws unless it succeeded. */
  async ended(instance: string): Promise<void> {
    const state = await eventually(
      async () => {
        const latest = await this.shape.db
          .selectFrom('instance_operations')
          .select('state')
          .where('instance_id', '=', instance)
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirst();
        return latest && latest.state !== 'running' ? latest.state : undefined;
      },
      300_000,
      'the operation to end',
    );
    if (state !== 'succeeded') throw new Error(`the operation ended ${state}`);
  }
}

async function addAndRemoveKey(soak: Soak): Promise<void> {
  let id: string | undefined;
  await soak.timed('add an SSH key', async () => {
    const body = { name: `soak-${randomUUID()}`, public_key: sshKeyLine() };
    id = (await soak.ok(soak.customer.POST('/ssh-keys', { body }))).attributes.uuid;
  });
  if (id)
    await soak.timed('remove an SSH key', () =>
      soak.ok(soak.customer.DELETE('/ssh-keys/{keyUuid}', { params: { path: { keyUuid: id! } } })),
    );
}

async function powerCycle(soak: Soak, instance: string): Promise<void> {
  for (const action of ['stop', 'start'] as const) {
    const done = await soak.timed(`power ${action} (request to done)`, async () => {
      await soak.ok(soak.customer.POST('/{cloudInstance}/power', { ...path(instance), body: { action } }));
      await soak.ended(instance);
    });
    if (!done) return;
  }
}

async function backUp(soak: Soak, instance: string): Promise<void> {
  await soak.ok(soak.customer.POST('/{cloudInstance}/backups', { ...path(instance), body: {} }));
  await soak.ended(instance);
}

async function migrate(soak: Soak, instance: string): Promise<void> {
  const { shape } = soak;
  const { hypervisor_id } = await shape.db
    .selectFrom('instances')
    .select('hypervisor_id')
    .where('id', '=', instance)
    .executeTakeFirstOrThrow();
  const others = shape.hypervisors.filter((h) => h.id !== hypervisor_id);
  const target = others[Math.floor(Math.random() * others.length)]!.id;
  const asked = await soak.ok(
    shape.admin.POST('/instances/{instance}/migrations', {
      params: { path: { instance } },
      body: { target_hypervisor_uuid: target, mode: 'LIVE_IF_POSSIBLE', reason: 'soak' },
    }),
  );
  const id = (asked as { attributes: { uuid: string } }).attributes.uuid;
  const state = await eventually(
    async () => {
      const { state } = await shape.db
        .selectFrom('migrations')
        .select('state')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return ['CLEANED_UP', 'ROLLED_BACK', 'RECOVERY_REQUIRED'].includes(state) ? state : undefined;
    },
    300_000,
    'the migration to end',
  );
  if (state !== 'CLEANED_UP') throw new Error(`the migration ended ${state}`);
}
