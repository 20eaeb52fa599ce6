import { hashToken } from '../../domain/credentials.js';
import type { Database } from '../database.js';
import { upsertImage, upsertLocation, upsertPlan } from '../repositories/catalog.js';
import { createCredential, findActiveCredential } from '../repositories/credentials.js';
import { findHypervisor, insertHypervisor } from '../repositories/hypervisors.js';
import { insertInstance } from '../repositories/instances.js';
import { findUserByEmail, insertUser } from '../repositories/users.js';

export const DEMO = {
  location: { code: 'demo-1', name: 'Demo location' },
  plan: { code: 'demo-small', name: 'Demo small', cpu_cores: 1, memory_mb: 1024, disk_mb: 20480 },
  image: { code: 'debian-12', name: 'Debian 12', os_family: 'linux', min_disk_mb: 2048 },
  customer: { email: 'demo@cloudsvc.local', name: 'Demo Customer' },
  admin: { email: 'admin@cloudsvc.local', name: 'Demo Administrator' },
  hypervisor: 'demo-hv-1',
  instance: 'demo-instance',
} as const;

/** Keys the demo printed before; kept in the data folder so a restart shows the same ones. */
export interface DemoKeys {
  client?: string;
  application?: string;
}

export interface DemoSeed {
  readonly hypervisorId: string;
  readonly keys: Required<DemoKeys>;
  /** Set while the demo instance is still to be provisioned on the hypervisor. */
  readonly provisioning?: { id: string; imageCode: string };
}

/** Seeds the demo catalogue, users, keys, hypervisor and instance; running it again changes nothing. */
export async function seedDemo(db: Database, known: DemoKeys): Promise<DemoSeed> {
  const location = await upsertLocation(db, DEMO.location);
  const plan = await upsertPlan(db, DEMO.plan);
  const image = await upsertImage(db, DEMO.image);
  const customer =
    (await findUserByEmail(db, DEMO.customer.email)) ??
    (await insertUser(db, { ...DEMO.customer, isAdmin: false }));
  const admin =
    (await findUserByEmail(db, DEMO.admin.email)) ?? (await insertUser(db, { ...DEMO.admin, isAdmin: true }));

  const keyFor = async (token: string | undefined, type: 'client' | 'application', userId: string) => {
    if (token && (await findActiveCredential(db, hashToken(token)))) return token;
    return (await createCredential(db, { type, userId, label: 'npm start demo' })).token;
  };
  const keys = {
    client: await keyFor(known.client, 'client', customer.id),
    application: await keyFor(known.application, 'application', admin.id),
  };

  const existingHv = await db
    .selectFrom('hypervisors')
    .select('id')
    .where('name', '=', DEMO.hypervisor)
    .executeTakeFirst();
  const hypervisorId =
    existingHv?.id ??
    (
      await insertHypervisor(db, {
        name: DEMO.hypervisor,
        locationId: location.id,
        cpuCores: 32,
        memoryMb: 131072,
        diskMb: 2_000_000,
        capabilities: ['live_migration'],
        storageBackends: ['local'],
      })
    ).id;

  const existingInstance = await db
    .selectFrom('instances')
    .select(['id', 'status'])
    .where('user_id', '=', customer.id)
    .where('name', '=', DEMO.instance)
    .executeTakeFirst();
  if (existingInstance) {
    // A start stopped between the insert and the workflow start resumes the provisioning.
    return existingInstance.status === 'provisioning'
      ? { hypervisorId, keys, provisioning: { id: existingInstance.id, imageCode: image.code } }
      : { hypervisorId, keys };
  }

  const hv = await findHypervisor(db, hypervisorId);
  const instance = await insertInstance(db, {
    user_id: customer.id,
    location_id: hv!.location_id,
    hypervisor_id: hypervisorId,
    plan_id: plan.id,
    image_id: image.id,
    name: DEMO.instance,
    hostname: `${DEMO.instance}.cloudsvc.local`,
    status: 'provisioning',
    cpu_cores: plan.cpu_cores,
    memory_mb: plan.memory_mb,
    disk_mb: plan.disk_mb,
    primary_ipv4: '192.0.2.10',
    primary_ipv6: null,
    virtualization: 'kvm',
    boot_order: JSON.stringify(['disk', 'cdrom']),
    timezone: 'UTC',
  });
  return { hypervisorId, keys, provisioning: { id: instance.id, imageCode: image.code } };
}
