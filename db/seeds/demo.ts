import { hashToken } from '../../domain/credentials.js';
import type { Database } from '../database.js';
import { findActiveCredential } from '../repositories/accounts/active-credentials.js';
import { createCredential } from '../repositories/accounts/credentials.js';
import { findUserByEmail, insertUser } from '../repositories/accounts/users.js';
import { upsertImage, upsertLocation, upsertPlan } from '../repositories/catalogue/catalog.js';
import { insertHypervisor } from '../repositories/hypervisors/hypervisors.js';
import { insertIpPool } from '../repositories/network/ip-pools.js';

export const DEMO = {
  location: { code: 'demo-1', name: 'Demo location' },
  plan: { code: 'demo-small', name: 'Demo small', cpu_cores: 1, memory_mb: 1024, disk_mb: 20480 },
  image: { code: 'debian-12', name: 'Debian 12', os_family: 'debian', min_disk_mb: 2048 },
  /** The fast guest of a demo on real guests: it counts on its console, so a move can be watched. */
  fastImage: { code: 'busybox', name: 'Busybox test guest', os_family: 'busybox', min_disk_mb: 32 },
  /** Documentation ranges (RFC 5737, RFC 3849): nothing real is ever addressed. */
  pools: [
    { name: 'demo IPv4', family: 4, cidr: '192.0.2.0/24', gateway: '192.0.2.1' },
    { name: 'demo IPv6', family: 6, cidr: '2001:db8:1::/64', gateway: '2001:db8:1::1' },
  ],
  customer: { email: 'demo@cloudsvc.local', name: 'Demo Customer' },
  admin: { email: 'admin@cloudsvc.local', name: 'Demo Administrator' },
  instance: 'demo-instance',
} as const;

/** Keys the demo printed before; kept in the data folder so a restart shows the same ones. */
export interface DemoKeys {
  client?: string;
  application?: string;
}

/** The name of the demo's `n`th hypervisor (from 1). */
export const demoHypervisor = (n: number) => `demo-hv-${n}`;

export interface DemoSeed {
  /** The hypervisors' ids, demo-hv-1 first. */
  readonly hypervisorIds: readonly string[];
  readonly keys: Required<DemoKeys>;
  /** Set while the demo instance is still to be created (through the Client API's POST /). */
  readonly create?: { name: string; hostname: string; plan: string; image: string; location: string };
}

/**
 * Seeds the demo catalogue, address pools, users, keys and hypervisor; running it again changes
 * nothing. The demo instance is created by `npm start` through the Client API, like a customer's.
 * On real guests there is a second hypervisor to move to, and the demo instance is the fast busybox
 * guest, whose count shows a move; `debian-12` can be ordered beside it once its image is built.
 */
export async function seedDemo(
  db: Database,
  known: DemoKeys,
  options: {
    realGuests?: boolean;
    /** How many hypervisors: 1 by default, 2 on real guests (one to migrate to). */
    hypervisors?: number;
  } = {},
): Promise<DemoSeed> {
  const location = await upsertLocation(db, DEMO.location);
  const plan = await upsertPlan(db, DEMO.plan);
  const debian = await upsertImage(db, DEMO.image);
  const image = options.realGuests ? await upsertImage(db, DEMO.fastImage) : debian;
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

  const hypervisor = async (name: string) =>
    (await db.selectFrom('hypervisors').select('id').where('name', '=', name).executeTakeFirst())?.id ??
    (
      await insertHypervisor(db, {
        name,
        locationId: location.id,
        cpuCores: 32,
        memoryMb: 131072,
        diskMb: 2_000_000,
        capabilities: ['live_migration'],
        storageBackends: ['local'],
      })
    ).id;
  const hypervisorIds: string[] = [];
  const count = options.hypervisors ?? (options.realGuests ? 2 : 1);
  for (let n = 1; n <= count; n++) hypervisorIds.push(await hypervisor(demoHypervisor(n)));

  const pools = await db
    .selectFrom('ip_pools')
    .select('cidr')
    .where('location_id', '=', location.id)
    .execute();
  for (const pool of DEMO.pools) {
    if (pools.some((p) => p.cidr === pool.cidr)) continue;
    await insertIpPool(db, {
      locationId: location.id,
      name: pool.name,
      family: pool.family as 4 | 6,
      cidr: pool.cidr,
      gateway: pool.gateway,
    });
  }

  const existingInstance = await db
    .selectFrom('instances')
    .select('id')
    .where('user_id', '=', customer.id)
    .where('name', '=', DEMO.instance)
    .executeTakeFirst();
  if (existingInstance) return { hypervisorIds, keys };
  return {
    hypervisorIds,
    keys,
    create: {
      name: DEMO.instance,
      hostname: `${DEMO.instance}.cloudsvc.local`,
      plan: plan.code,
      image: image.code,
      location: location.code,
    },
  };
}
