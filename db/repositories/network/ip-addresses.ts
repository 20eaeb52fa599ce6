import { sql } from 'kysely';
import type { GuestAddresses } from '../../../domain/agent-tasks.js';
import type { AddressFamily } from '../../../domain/networks/addresses.js';
import { POOL_SCAN_LIMIT } from '../../../domain/networks/ip-pools.js';
import type { Database } from '../../database.js';

/**
 * Takes the lowest free address of the location's pools of `family` for the instance, in the
 * caller's transaction: the primary one of a new instance, or one more (`attaching` until its
 * hypervisor has it). The pool row is locked first, so concurrent allocations in one pool take
 * turns and never pick the same address (the unique address constraint stands behind it). The
 * network, broadcast and gateway addresses are never handed out. Undefined when every pool is full.
 */
export async function allocateAddress(
  db: Database,
  request: {
    locationId: string;
    family: AddressFamily;
    /** None for a floating IP, which its owner attaches later. */
    instanceId: string | null;
    userId: string;
    role: 'primary' | 'additional' | 'floating';
    /** The new row's id, when the caller names it before (an operation's input carries it). */
    id?: string;
  },
): Promise<{ id: string; address: string } | undefined> {
  const pools = await db
    .selectFrom('ip_pools')
    .select('id')
    .where('location_id', '=', request.locationId)
    .where('family', '=', request.family)
    .orderBy('created_at')
    .orderBy('id')
    .forUpdate()
    .execute();
  for (const pool of pools) {
    // Candidates as host addresses (/32, /128): `network + n` keeps the pool's mask, and inet
    // values with different masks never compare equal.
    const free = await sql<{ address: string }>`
      select host(c.address) as address
        from ip_pools p,
             generate_series(1::bigint, least(
               case when family(p.cidr) = 4 then power(2, 32 - masklen(p.cidr))::bigint - 2
                    else ${POOL_SCAN_LIMIT} end,
               ${POOL_SCAN_LIMIT})) g(n),
             lateral (select set_masklen(network(p.cidr) + g.n, case when family(p.cidr) = 4 then 32 else 128 end)
                        as address) c
       where p.id = ${pool.id}
         and (p.gateway is null or host(c.address) <> host(p.gateway))
         and not exists (select 1 from ip_addresses a where a.address = c.address)
       order by g.n
       limit 1`.execute(db);
    const address = free.rows[0]?.address;
    if (!address) continue;
    const primary = request.role === 'primary';
    const { id } = await db
      .insertInto('ip_addresses')
      .values({
        ...(request.id ? { id: request.id } : {}),
        pool_id: pool.id,
        address,
        kind: request.role === 'floating' ? 'floating' : 'fixed',
        user_id: request.userId,
        instance_id: request.instanceId,
        is_primary: primary,
        state: request.role === 'additional' ? 'attaching' : 'attached',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id, address };
  }
  return undefined;
}

/**
 * The instance's primary addresses as its guest sets them up: each with its pool's prefix length
 * and gateway. Read where the create and rebuild tasks are made, so a guest is told what the panel holds.
 */
export async function guestAddressesOf(db: Database, instanceId: string): Promise<GuestAddresses> {
  const rows = await db
    .selectFrom('ip_addresses as a')
    .innerJoin('ip_pools as p', 'p.id', 'a.pool_id')
    .select([
      'p.family',
      sql<string>`host(a.address)`.as('address'),
      sql<number>`masklen(p.cidr)`.as('prefix'),
      sql<string | null>`host(p.gateway)`.as('gateway'),
    ])
    .where('a.instance_id', '=', instanceId)
    .where('a.is_primary', '=', true)
    .orderBy('a.created_at')
    .execute();
  const of = (family: 4 | 6) => {
    const row = rows.find((r) => r.family === family);
    return row ? { address: row.address, prefix: row.prefix, gateway: row.gateway } : null;
  };
  return { ipv4: of(4), ipv6: of(6) };
}
