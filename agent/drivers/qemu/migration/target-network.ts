import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';
import type { QemuGuests } from '../guests/guests.js';

/**
 * The guest's network where it lands: the NIC's MAC comes from the instance id (the same here as
 * on the source), and the guest keeps the addresses its seed gave it (setup-handoff.ts). The
 * whole network and the firewall the panel carries are kept with the arriving guest: on the
 * bridged network its taps are wired with them when it starts here (guests/guests.ts `launch`). Its
 * private NICs' slots are the source's, from the setup handoff: the devices must be the same.
 */
export function prepareNetwork(guests: QemuGuests, p: AgentTaskParams<'network.prepare'>) {
  const incoming = guests.incoming(p.migration_id);
  incoming.network_ready = true;
  if (p.network)
    incoming.network = { revision: p.network.revision, addresses: p.network.addresses, nics: p.network.nics };
  if (p.firewall)
    incoming.firewall = {
      revision: p.firewall.revision,
      enabled: p.firewall.enabled,
      rules: p.firewall.rules,
    };
  guests.save();
  return { prepared: true };
}

export function releaseNetwork(guests: QemuGuests, p: AgentTaskParams<'network.release'>) {
  const incoming = guests.state.incoming[p.migration_id];
  if (incoming) incoming.network_ready = false;
  guests.save();
  return { released: true };
}
