import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { insertUser } from '../../db/repositories/accounts/users.js';
import { upsertImage, upsertLocation, upsertPlan } from '../../db/repositories/catalogue/catalog.js';
import { insertHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { insertInstance } from '../../db/repositories/instances/instances.js';
import { insertIpPool } from '../../db/repositories/network/ip-pools.js';
import type { CredentialType } from '../../domain/credentials.js';
import type { InstanceStatus } from '../../domain/instances/statuses.js';

/** Seeding through the repositories the app itself uses. */
export const seed = {
  async user(db: Database, options: { admin?: boolean } = {}) {
    const email = `user-${randomUUID()}@example.test`;
    return insertUser(db, { email, name: 'Test User', isAdmin: options.admin ?? false });
  },
  async key(db: Database, userId: string, type: Extract<CredentialType, 'client' | 'application'>) {
    return (await createCredential(db, { type, userId })).token;
  },
  async gatewayCredential(db: Database) {
    return (await createCredential(db, { type: 'console_gateway', label: 'test gateway' })).token;
  },
  async location(db: Database) {
    return upsertLocation(db, { code: `loc-${randomUUID().slice(0, 8)}`, name: 'Test location' });
  },
  async hypervisor(db: Database, locationId?: string, size: { cpuCores?: number } = {}) {
    const location = locationId ?? (await seed.location(db)).id;
    return insertHypervisor(db, {
      name: `hv-${randomUUID().slice(0, 8)}`,
      locationId: location,
      cpuCores: size.cpuCores ?? 32,
      memoryMb: 131072,
      diskMb: 2_000_000,
      capabilities: ['live_migration'],
      storageBackends: ['local'],
    });
  },
  /**
   * An IPv4 /24 pool (its .1 the gateway) that no other file of the run has: files share the run's
   * database, and two pools of one range in two locations would hand out one address twice.
   */
  async uniqueIpv4Pool(db: Database, locationId: string): Promise<{ id: string; cidr: string }> {
    const [a, b] = randomBytes(2);
    try {
      return await this.ipPool(db, locationId, `10.${a}.${b}.0/24`, `10.${a}.${b}.1`);
    } catch (error) {
      // Pools never overlap (ip_pools_no_overlap): a range another file drew is drawn again.
      if ((error as { code?: unknown }).code === '23P01') return this.uniqueIpv4Pool(db, locationId);
      throw error;
    }
  },
  /** A location's address pool; `cidr` of the documentation ranges (RFC 5737 / 3849). */
  async ipPool(db: Database, locationId: string, cidr: string, gateway: string | null = null) {
    return insertIpPool(db, {
      locationId,
      name: `pool ${cidr}`,
      family: cidr.includes(':') ? 6 : 4,
      cidr,
      gateway,
    });
  },
  /** A plan and an image with codes of their own, for creates through the Client API. */
  async catalog(db: Database, plan: { cpu_cores?: number } = {}) {
    const suffix = randomUUID().slice(0, 8);
    const created = await upsertPlan(db, {
      code: `plan-${suffix}`,
      name: 'Test plan',
      cpu_cores: plan.cpu_cores ?? 1,
      memory_mb: 1024,
      disk_mb: 20480,
    });
    const image = await upsertImage(db, {
      code: `image-${suffix}`,
      name: 'Test image',
      os_family: 'debian',
      min_disk_mb: 2048,
    });
    return { plan: created, image };
  },
  async instance(
    db: Database,
    fields: {
      userId: string;
      locationId: string;
      hypervisorId?: string | null;
      status?: InstanceStatus;
      name?: string;
    },
  ) {
    return insertInstance(db, {
      user_id: fields.userId,
      location_id: fields.locationId,
      hypervisor_id: fields.hypervisorId ?? null,
      name: fields.name ?? 'web-1',
      hostname: 'web-1.example.test',
      status: fields.status ?? 'running',
      cpu_cores: 2,
      memory_mb: 2048,
      disk_mb: 40960,
      primary_ipv4: '203.0.113.10',
      primary_ipv6: null,
      virtualization: 'kvm',
      boot_order: JSON.stringify(['disk', 'cdrom']),
      timezone: 'UTC',
    });
  },
};
