import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import type { Instance } from '../../db/repositories/instances/instances.js';
import type { Asker } from '../../domain/actors.js';
import { type ConsoleKind, offeredConsoles } from '../../domain/console/sessions.js';
import { effectiveCapabilities } from '../../domain/hypervisors.js';
import type { ServiceDeps } from '../context.js';
import { instanceInReach } from '../instances/reach.js';

/** What an instance's console offers: the kinds its hypervisor's agent relays, and for how long. */
export interface ConsoleOffer {
  readonly instance: Instance;
  readonly kinds: readonly ConsoleKind[];
  /** Whether sessions can be made at all (a console gateway is configured). */
  readonly available: boolean;
}

/** The instance's console as its hypervisor reported it (an unplaced instance offers none). */
export async function consoleOffer(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  asker: Asker,
  instanceId: string,
): Promise<ConsoleOffer> {
  const instance = await instanceInReach(deps, asker, instanceId);
  const hypervisor = instance.hypervisor_id
    ? await findHypervisor(deps.db, instance.hypervisor_id)
    : undefined;
  return {
    instance,
    kinds: offeredConsoles(
      hypervisor
        ? effectiveCapabilities({
            configured: [],
            reported: hypervisor.reported_capabilities ?? [],
            withheld: hypervisor.withheld_capabilities,
          })
        : [],
    ),
    available: deps.config.CONSOLE_GATEWAY_URL !== undefined,
  };
}
