import type { Database } from '../../db/database.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import {
  correctGuest,
  knownInstanceIds,
  listPlacedInstances,
  lockHypervisorForInventory,
  type PlacedInstanceRow,
} from '../../db/repositories/hypervisors/guest-inventory.js';
import {
  markInventoryReported,
  type ReportedGuest,
  replaceUnknownGuests,
} from '../../db/repositories/hypervisors/unknown-guests.js';
import { clearsFlagOnly, guestCorrection } from '../../domain/instances/guest-inventory.js';
import type { HotplugCeiling } from '../../domain/instances/hot-resize.js';
import type { PowerState } from '../../domain/instances/statuses.js';
import type { ServiceDeps } from '../context.js';
import type { AgentActor } from './actor.js';
import { recordReportedRoom } from './inventory-room.js';

export interface InventoryGuest {
  readonly instanceId: string;
  readonly powerState: PowerState;
  /** A running guest's room to grow as its process was booted; null: none; absent: not said. */
  readonly hotCeiling?: HotplugCeiling | null;
}

export interface InventoryOutcome {
  readonly received: number;
  /** Instances whose status or flag the report changed. */
  readonly corrected: number;
  /** Guests the panel knows no instance for. */
  readonly unknown: number;
  /** Instances to correct whose record changed too recently: the agent sends its next look anyway. */
  readonly deferred: number;
}

const ACTOR = 'system:guest-inventory';

/**
 * Compares the guests a hypervisor holds with the instances the panel placed on it, and records
 * the truth (domain/instances/guest-inventory.ts): the panel's records change, the hypervisor is
 * never asked to. One transaction, the hypervisor's row locked, so two reports of one hypervisor
 * take turns; every change is a compare-and-set, so the same report twice changes nothing the
 * second time and writes no second activity entry.
 */
export async function acceptInventory(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'logger'>,
  agent: AgentActor,
  guests: readonly InventoryGuest[],
): Promise<InventoryOutcome> {
  const reported: Reported = new Map(guests.map((g) => [g.instanceId, g.powerState]));
  const hypervisorId = agent.hypervisorId;
  const outcome = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockHypervisorForInventory(trx, hypervisorId)))
      return { corrected: 0, deferred: 0, unknown: [], newlySeen: [] };
    const placed = await listPlacedInstances(trx, hypervisorId, deps.config.GUEST_INVENTORY_SETTLE_MS);
    const counts = await correctPlaced(
      trx,
      hypervisorId,
      placed,
      reported,
      deps.config.GUEST_INVENTORY_SETTLE_MS,
    );
    await recordReportedRoom(trx, hypervisorId, placed, guests);
    const unknown = await recordUnknownGuests(trx, hypervisorId, placed, reported);
    await markInventoryReported(trx, hypervisorId);
    return { ...counts, ...unknown };
  });
  for (const guest of outcome.newlySeen) {
    deps.logger.warn('hypervisor holds a guest the panel does not know', {
      hypervisor_id: hypervisorId,
      guest_uuid: guest.guestUuid,
      power_state: guest.powerState,
    });
  }
  return {
    received: guests.length,
    corrected: outcome.corrected,
    unknown: outcome.unknown.length,
    deferred: outcome.deferred,
  };
}

type Reported = ReadonlyMap<string, PowerState>;

/** Corrects each placed instance the report contradicts, with its activity entry. */
async function correctPlaced(
  trx: Database,
  hypervisorId: string,
  placed: readonly PlacedInstanceRow[],
  reported: Reported,
  settleMs: number,
) {
  let corrected = 0;
  let deferred = 0;
  for (const instance of placed) {
    if (instance.busy) continue;
    const facts = {
      status: instance.status,
      drift: instance.guest_drift,
      reported: reported.get(instance.id) ?? null,
    };
    const correction = guestCorrection(facts);
    if (!correction) continue;
    const flagOnly = clearsFlagOnly(facts, correction);
    if (!flagOnly && instance.settling) {
      deferred += 1;
      continue;
    }
    const changed = await correctGuest(trx, {
      instanceId: instance.id,
      hypervisorId,
      expected: { status: instance.status, drift: instance.guest_drift },
      correction,
      stillForMs: flagOnly ? null : settleMs,
    });
    if (!changed) continue;
    corrected += 1;
    await recordActivity(trx, {
      instanceId: instance.id,
      userId: instance.user_id,
      actor: ACTOR,
      event: correction.event,
      detail: {
        status: correction.status,
        previous_status: instance.status,
        guest_drift: correction.drift,
        reported_power_state: facts.reported,
        hypervisor_id: hypervisorId,
      },
    });
  }
  return { corrected, deferred };
}

/** Keeps the guests no instance names, and writes an activity entry for each seen the first time. */
async function recordUnknownGuests(
  trx: Database,
  hypervisorId: string,
  placed: readonly PlacedInstanceRow[],
  reported: Reported,
) {
  const placedIds = new Set(placed.map((i) => i.id));
  const others = [...reported.keys()].filter((id) => !placedIds.has(id));
  // A guest of an instance placed elsewhere is a migration's copy (kept on the old source until
  // its cleanup, or arriving): the migration owns it. Unknown is a guest no instance names.
  const known = await knownInstanceIds(trx, others);
  const unknown: ReportedGuest[] = others
    .filter((id) => !known.has(id))
    .map((id) => ({ guestUuid: id, powerState: reported.get(id)! }));
  const newlySeen = await replaceUnknownGuests(trx, hypervisorId, unknown);
  for (const guest of newlySeen) {
    await recordActivity(trx, {
      actor: ACTOR,
      event: 'hypervisor.unknown_guest',
      detail: { hypervisor_id: hypervisorId, guest_uuid: guest.guestUuid, power_state: guest.powerState },
    });
  }
  return { unknown, newlySeen };
}
