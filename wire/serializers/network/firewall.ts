import type { FirewallDefaults } from '../../../db/repositories/network/firewall-defaults.js';
import type { FirewallRecord } from '../../../db/repositories/network/firewalls.js';
import {
  FIREWALL_ACTIONS,
  FIREWALL_DIRECTIONS,
  FIREWALL_PROTOCOLS,
  type FirewallRule,
} from '../../../domain/networks/firewall.js';
import { z } from '../../zod.js';

const RuleAttributes = z
  .object({
    direction: z.enum(FIREWALL_DIRECTIONS),
    protocol: z.enum(FIREWALL_PROTOCOLS),
    port: z
      .string()
      .nullable()
      .openapi({ example: '22', description: 'A port or a range (`8000-8100`); null for all.' }),
    cidr: z.string().openapi({
      example: '0.0.0.0/0',
      description: 'The remote range: where inbound traffic comes from, where outbound traffic goes.',
    }),
    action: z.enum(FIREWALL_ACTIONS),
    description: z.string().nullable(),
  })
  .openapi('FirewallRule');

/** A firewall's toggle and rules, an instance's and the default one alike. */
const firewallSet = {
  enabled: z.boolean(),
  rules: z.array(RuleAttributes).openapi({ description: 'In order: the first rule that matches decides.' }),
  rule_limit: z.number().int().openapi({ description: 'FIREWALL_RULES_MAX.' }),
};

export const FirewallEnvelope = z
  .object({
    object: z.literal('firewall'),
    attributes: z.object({
      ...firewallSet,
      revision: z.number().int(),
      applied_revision: z.number().int(),
      in_sync: z.boolean().openapi({ description: 'Whether the hypervisor has applied this revision.' }),
    }),
  })
  .openapi('Firewall');

export const FirewallDefaultsEnvelope = z
  .object({
    object: z.literal('firewall_defaults'),
    attributes: z.object({
      ...firewallSet,
      updated_at: z.string().openapi({ example: '2026-11-22T01:02:03.000Z' }),
    }),
  })
  .openapi('FirewallDefaults');

const portOf = (rule: FirewallRule) =>
  rule.port_from === null
    ? null
    : rule.port_from === rule.port_to
      ? String(rule.port_from)
      : `${rule.port_from}-${rule.port_to}`;

const serializeRule = (rule: FirewallRule) => ({
  direction: rule.direction,
  protocol: rule.protocol,
  port: portOf(rule),
  cidr: rule.cidr,
  action: rule.action,
  description: rule.description,
});

export function serializeFirewall(
  record: FirewallRecord,
  ruleLimit: number,
): z.infer<typeof FirewallEnvelope> {
  return {
    object: 'firewall',
    attributes: {
      enabled: record.enabled,
      rules: record.rules.map(serializeRule),
      rule_limit: ruleLimit,
      revision: record.revision,
      applied_revision: record.appliedRevision,
      in_sync: record.appliedRevision >= record.revision,
    },
  };
}

export function serializeFirewallDefaults(
  defaults: FirewallDefaults,
  ruleLimit: number,
): z.infer<typeof FirewallDefaultsEnvelope> {
  return {
    object: 'firewall_defaults',
    attributes: {
      enabled: defaults.enabled,
      rules: defaults.rules.map(serializeRule),
      rule_limit: ruleLimit,
      updated_at: defaults.updated_at.toISOString(),
    },
  };
}
