/**
 * The plane the concurrent operations run on: a location of its own with `hypervisors` simulated
 * hypervisors (zero-latency driver, each agent running as many tasks at once as it may), a plan,
 * an image and an IPv4 pool there, and customers with client keys. Operations are spread over the
 * customers as a provider's are: one customer's per-minute order limit is a row every order of
 * theirs takes in turn.
 */
import type { ChildProcess } from 'node:child_process';
import type { Database } from '../../db/database.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { insertUser } from '../../db/repositories/accounts/users.js';
import { upsertImage, upsertLocation, upsertPlan } from '../../db/repositories/catalogue/catalog.js';
import { insertHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { insertIpPool } from '../../db/repositories/network/ip-pools.js';
import type { WorkflowStack } from '../stack.js';

export const PLAN = {
  code: 'scale-ops',
  name: 'Scale operations',
  cpu_cores: 1,
  memory_mb: 512,
  disk_mb: 2048,
};
export const IMAGE = { code: 'scale-debian-12', name: 'Debian 12', os_family: 'debian', min_disk_mb: 2048 };
/** Of the benchmarking range (RFC 2544, 198.18.0.0/15), apart from the other parts' pools. */
const POOL = { cidr: '198.18.16.0/20', gateway: '198.18.16.1', addresses: 4096 - 3 };
/** The most tasks an agent runs at once (AGENT_CONCURRENCY's bound): its slots never queue the load. */
const CONCURRENCY = 64;

export interface OperationsPlane {
  readonly locationCode: string;
  /** Client keys, one a customer. */
  readonly keys: readonly string[];
  /** The hypervisors' agents, stopped when the part is done so they weigh on no later figure. */
  readonly agents: readonly ChildProcess[];
}

export async function seedOperationsPlane(
  db: Database,
  workflows: WorkflowStack,
  scale: { hypervisors: number; customers: number; instances: number },
): Promise<OperationsPlane> {
  if (scale.instances > POOL.addresses)
    throw new Error(`${scale.instances} instances do not fit in ${POOL.cidr}`);
  const location = await upsertLocation(db, { code: 'scale-ops', name: 'Scale operations' });
  await upsertPlan(db, PLAN);
  await upsertImage(db, IMAGE);
  await insertIpPool(db, {
    locationId: location.id,
    name: 'scale IPv4',
    family: 4,
    cidr: POOL.cidr,
    gateway: POOL.gateway,
  });
  // Each hypervisor holds all the instances, so placement is never what refuses one.
  const size = {
    cpuCores: scale.instances * PLAN.cpu_cores,
    memoryMb: scale.instances * PLAN.memory_mb,
    diskMb: scale.instances * PLAN.disk_mb,
  };
  const agents: ChildProcess[] = [];
  for (let i = 0; i < scale.hypervisors; i++) {
    const hv = await insertHypervisor(db, {
      name: `scale-ops-${i}`,
      locationId: location.id,
      ...size,
      capabilities: [],
      storageBackends: ['local'],
    });
    const agent = await workflows.startAgent(hv.id, `scale agent ${i}`, {
      AGENT_CONCURRENCY: String(CONCURRENCY),
      AGENT_CAPACITY: JSON.stringify({
        cpu_cores: size.cpuCores,
        memory_mb: size.memoryMb,
        disk_mb: size.diskMb,
      }),
    });
    agents.push(agent);
  }
  const keys: string[] = [];
  for (let i = 0; i < scale.customers; i++) {
    const user = await insertUser(db, {
      email: `scale-ops-${i}@example.test`,
      name: `Customer ${i}`,
      isAdmin: false,
    });
    keys.push((await createCredential(db, { type: 'client', userId: user.id })).token);
  }
  return { locationCode: location.code, keys, agents };
}
