import { join } from 'node:path';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { fetchImageInto } from '../../media/image-fetch.js';
import { removeStoredImage } from '../../media/image-removal.js';
import type { SimulatedHost } from './host.js';

/** The simulated hypervisor's image store: a folder of its state directory. */
export const simulatedImageStore = (host: SimulatedHost) => join(host.config.AGENT_STATE_DIR, 'images');

/**
 * Fetches the image version for real (the agent's own fetcher, its address checks, size bound and
 * checksum) into the simulated hypervisor's image store; one it has already is not fetched again.
 * Recorded under the version's id in the list of what was applied.
 */
export async function fetchImage(
  host: SimulatedHost,
  p: AgentTaskParams<'image.fetch'>,
  signal: AbortSignal,
) {
  const { size_mb, fetched } = await fetchImageInto(simulatedImageStore(host), p, signal);
  if (fetched) host.record('image.fetch', p.image, `${p.format}: ${size_mb} MB`);
  return { size_mb };
}

/**
 * A deleted version's copy removed from the simulated hypervisor's image store, refused while an
 * instance here was made from it (as the QEMU driver's guests boot from theirs). Recorded when
 * something was removed; one not there is done.
 */
export function deleteImage(host: SimulatedHost, p: AgentTaskParams<'image.delete'>) {
  const using = Object.entries(host.state.instances)
    .filter(([, instance]) => instance.image === p.image)
    .map(([id]) => id);
  const outcome = removeStoredImage(simulatedImageStore(host), p, using);
  if (outcome.removed) host.record('image.delete', p.image, 'removed');
  return outcome;
}
