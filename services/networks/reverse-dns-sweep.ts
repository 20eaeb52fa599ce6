import { locationsWithStaleReverseDns } from '../../db/repositories/network/reverse-dns-stale.js';
import type { ServiceDeps } from '../context.js';
import { wakeReverseDnsPublisher } from './reverse-dns-wake.js';

/**
 * The worker's periodic pass over reverse DNS: wakes the publishing run of every location with a
 * change or a withdrawal older than `RDNS_SWEEP_AFTER_MS` that nothing answered (a wake lost when
 * Temporal could not be reached: a floating IP's delete, a change's `not_started`). Waking a run
 * that is already going only asks it for one more pass, so the sweep is safe beside any run and on
 * several workers. The locations woken.
 */
export async function wakeStaleReverseDns(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'>) {
  const woken: string[] = [];
  for (const locationId of await locationsWithStaleReverseDns(deps.db, deps.config.RDNS_SWEEP_AFTER_MS)) {
    try {
      await wakeReverseDnsPublisher(deps, locationId, { resync: false }, null);
      woken.push(locationId);
    } catch (error) {
      deps.logger.warn('reverse DNS publishing not woken; the next sweep tries again', {
        location_id: locationId,
        error,
      });
    }
  }
  return woken;
}
