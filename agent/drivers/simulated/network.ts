import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import type { SimulatedHost } from './host.js';

// The instance's network on the simulated hypervisor: the whole set at the panel's revision, kept
// so tests compare it with what the panel holds.

/**
 * Applies a network revision newer than the instance's, all of it; an older or equal one (a task
 * delivered again, or late) changes nothing. Answers the revision the instance then has.
 */
export function applyNetwork(host: SimulatedHost, p: AgentTaskParams<'network.apply'>) {
  const instance = host.existing(p.instance_id);
  if (instance.network && p.revision <= instance.network.revision)
    return { revision: instance.network.revision };
  const primary = (family: 4 | 6) =>
    p.addresses.find((a) => a.family === family && a.primary)?.address ?? null;
  Object.assign(instance, {
    network: { revision: p.revision, addresses: p.addresses, nics: p.nics },
    ipv4: primary(4),
    ipv6: primary(6),
  });
  host.record(
    'network.apply',
    p.instance_id,
    `revision ${p.revision}: ${p.addresses.map((a) => a.address).join(', ') || 'no addresses'}` +
      p.nics.map((nic) => `; ${nic.address} on private network ${nic.network_id}`).join(''),
  );
  return { revision: p.revision };
}

/** Applies a firewall revision newer than the instance's, toggle and rules as one set (as `applyNetwork`). */
export function applyFirewall(host: SimulatedHost, p: AgentTaskParams<'firewall.apply'>) {
  const instance = host.existing(p.instance_id);
  if (instance.firewall && p.revision <= instance.firewall.revision)
    return { revision: instance.firewall.revision };
  instance.firewall = { revision: p.revision, enabled: p.enabled, rules: p.rules };
  host.record(
    'firewall.apply',
    p.instance_id,
    `revision ${p.revision}: ${p.enabled ? 'enabled' : 'disabled'}, ${p.rules.length} rules`,
  );
  return { revision: p.revision };
}
