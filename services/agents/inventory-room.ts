import type { Database } from '../../db/database.js';
import type { PlacedInstanceRow } from '../../db/repositories/hypervisors/guest-inventory.js';
import { correctHotCeilings } from '../../db/repositories/instances/instance-size-reports.js';
import type { HotplugCeiling } from '../../domain/instances/hot-resize.js';
import type { PowerState } from '../../domain/instances/statuses.js';

/** A guest as the inventory reports it (services/agents/inventory.ts). */
interface ReportedRoom {
  readonly instanceId: string;
  readonly powerState: PowerState;
  readonly hotCeiling?: HotplugCeiling | null;
}

/**
 * The room to grow each running guest has, as its hypervisor says its process was booted with,
 * becomes its instance's: what a plan change's dry run reads (docs/api.md "Plan changes") is what
 * the hypervisor checks a hot change against, not what the panel last asked for (a boot from the
 * CD-ROM gives no memory room; a move keeps the source's). An instance under an operation or a
 * move is left to it, and so is one whose record changed within the settle time (a report gathered
 * before a boot that settled since would put back the previous boot's room); a stopped guest says
 * nothing (its next boot decides). Compare-and-set, so a repeated inventory changes nothing.
 */
export async function recordReportedRoom(
  trx: Database,
  hypervisorId: string,
  placed: readonly PlacedInstanceRow[],
  guests: readonly ReportedRoom[],
): Promise<void> {
  const free = new Set(placed.filter((i) => !i.busy && !i.settling).map((i) => i.id));
  const reported = guests.flatMap((guest) =>
    guest.powerState === 'running' && guest.hotCeiling !== undefined && free.has(guest.instanceId)
      ? [{ instanceId: guest.instanceId, ceiling: guest.hotCeiling }]
      : [],
  );
  await correctHotCeilings(trx, hypervisorId, reported);
}
