import type { Context } from 'hono';
import type { Asker } from '../../domain/actors.js';
import type { AppEnv } from '../../http/context.js';
import { changeFirewall, type FirewallChange } from '../../services/networks/firewall.js';
import { jsonContent } from '../../wire/schemas.js';
import { FirewallEnvelope, serializeFirewall } from '../../wire/serializers/network/firewall.js';

/** A firewall change's 202, in the Client and the Application API alike: the firewall as now recorded. */
export const firewallAccepted = jsonContent(
  FirewallEnvelope,
  'Accepted; the firewall as now recorded (`in_sync` false until applied).',
);

/**
 * Records `change` to the instance's firewall for `asker` (a customer their own instance's, an
 * administrator any) and answers 202 with the firewall as now recorded.
 */
export async function answerFirewallChange(
  c: Context<AppEnv>,
  asker: Asker,
  instanceId: string,
  change: FirewallChange,
) {
  const deps = c.get('deps');
  const record = await changeFirewall(deps, asker, { instanceId, change, correlationId: c.get('requestId') });
  return c.json(serializeFirewall(record, deps.config.FIREWALL_RULES_MAX), 202);
}
