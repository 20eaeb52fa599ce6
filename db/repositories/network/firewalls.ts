import { sql } from 'kysely';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import type { Firewall, FirewallRule } from '../../../domain/networks/firewall.js';
import type { Database } from '../../database.js';
import { bumpRevision } from './network-revisions.js';

// An instance's firewall: the toggle and revisions on the instance row, the rules in their table.

const RULE_COLUMNS = [
  'direction',
  'protocol',
  'port_from',
  'port_to',
  sql<string>`cidr::text`.as('cidr'),
  'action',
  'description',
] as const;

/** The instance's firewall as the panel holds it, with its revisions. */
export async function findFirewall(db: Database, instanceId: string) {
  const instance = await db
    .selectFrom('instances')
    .select(['firewall_enabled', 'firewall_revision', 'firewall_applied_revision'])
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();
  const rules: FirewallRule[] = await db
    .selectFrom('firewall_rules')
    .select(RULE_COLUMNS)
    .where('instance_id', '=', instanceId)
    .orderBy('position')
    .execute();
  return {
    enabled: instance.firewall_enabled,
    rules,
    revision: instance.firewall_revision,
    appliedRevision: instance.firewall_applied_revision,
  };
}

export type FirewallRecord = Awaited<ReturnType<typeof findFirewall>>;

/** The firewall as the instance's hypervisor applies it, at its current revision. */
export async function desiredFirewallOf(
  db: Database,
  instanceId: string,
): Promise<AgentTaskParams<'firewall.apply'>> {
  const firewall = await findFirewall(db, instanceId);
  return {
    instance_id: instanceId,
    revision: firewall.revision,
    enabled: firewall.enabled,
    rules: firewall.rules.map(({ description: _, ...rule }) => rule),
  };
}

/** Replaces the whole firewall, toggle and rules, and moves its revision on; in the caller's transaction. */
export async function replaceFirewall(trx: Database, instanceId: string, firewall: Firewall): Promise<void> {
  await trx.deleteFrom('firewall_rules').where('instance_id', '=', instanceId).execute();
  if (firewall.rules.length > 0)
    await trx
      .insertInto('firewall_rules')
      .values(firewall.rules.map((rule, position) => ({ ...rule, instance_id: instanceId, position })))
      .execute();
  await trx
    .updateTable('instances')
    .set({ firewall_enabled: firewall.enabled })
    .where('id', '=', instanceId)
    .execute();
  await bumpRevision(trx, instanceId, 'firewall');
}
