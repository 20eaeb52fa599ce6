import type { Context } from 'hono';
import { findFirewall } from '../../../../db/repositories/firewalls.js';
import type { AppEnv } from '../../../../http/context.js';
import { jsonContent } from '../../../../wire/schemas.js';
import { FirewallEnvelope, serializeFirewall } from '../../../../wire/serializers/firewall.js';
import { callersInstance } from '../callers-instance.js';

/** What every firewall path's `GET` says it answers. */
export const FIREWALL_READ_DESCRIPTION =
  'The toggle, the rules in order and whether the hypervisor has applied them (as every firewall path answers).';

/** A firewall read's 200. */
export const firewallShown = jsonContent(FirewallEnvelope, 'The firewall.');

/** Answers the caller's instance's firewall, whichever part of it the path names. */
export async function answerFirewall(c: Context<AppEnv>, instanceId: string) {
  const instance = await callersInstance(c, instanceId);
  const { db, config } = c.get('deps');
  return c.json(serializeFirewall(await findFirewall(db, instance.id), config.FIREWALL_RULES_MAX), 200);
}
