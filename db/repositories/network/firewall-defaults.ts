import { sql } from 'kysely';
import type { Firewall, FirewallRule } from '../../../domain/networks/firewall.js';
import type { Database } from '../../database.js';

// The provider's default firewall: one row for the toggle, its rules in order.

/** The default firewall; `forUpdate` holds its row until the caller's transaction ends. */
export async function findFirewallDefaults(db: Database, { forUpdate = false } = {}) {
  let query = db.selectFrom('firewall_defaults').select(['enabled', 'updated_at']);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirstOrThrow();
  const rules: FirewallRule[] = await db
    .selectFrom('firewall_default_rules')
    .select([
      'direction',
      'protocol',
      'port_from',
      'port_to',
      sql<string>`cidr::text`.as('cidr'),
      'action',
      'description',
    ])
    .orderBy('position')
    .execute();
  return { enabled: row.enabled, rules, updated_at: row.updated_at };
}

export type FirewallDefaults = Awaited<ReturnType<typeof findFirewallDefaults>>;

/** Replaces the default firewall, toggle and rules; in the caller's transaction, its row held. */
export async function replaceFirewallDefaults(trx: Database, firewall: Firewall): Promise<void> {
  await trx.deleteFrom('firewall_default_rules').execute();
  if (firewall.rules.length > 0)
    await trx
      .insertInto('firewall_default_rules')
      .values(firewall.rules.map((rule, position) => ({ ...rule, position })))
      .execute();
  await trx
    .updateTable('firewall_defaults')
    .set({ enabled: firewall.enabled, updated_at: sql`now()` })
    .execute();
}
