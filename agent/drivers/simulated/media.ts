import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTaskParams } from '../../../domain/agent-tasks.js';
import { fetchIso } from '../../media/iso-fetch.js';
import type { SimulatedHost } from './host.js';

/**
 * Fetches the ISO for real (the agent's own fetcher, with its address checks) into the simulated
 * hypervisor's folder, and records it with the instance; one it has already is not fetched again.
 */
export async function fetchInstanceIso(
  host: SimulatedHost,
  p: AgentTaskParams<'iso.fetch'>,
  signal: AbortSignal,
) {
  const instance = host.existing(p.instance_id);
  const held = instance.isos?.[p.iso_id];
  if (held) return held;
  const fetched = await fetchIso(
    p,
    join(host.config.AGENT_STATE_DIR, 'isos', p.instance_id, `${p.iso_id}.iso`),
    signal,
  );
  instance.isos = { ...instance.isos, [p.iso_id]: fetched };
  host.record('iso.fetch', p.instance_id, `${p.iso_id}: ${fetched.size_mb} MB`);
  return fetched;
}

/** A deleted instance's ISOs go with it. */
export function dropIsosOf(host: SimulatedHost, instanceId: string): void {
  rmSync(join(host.config.AGENT_STATE_DIR, 'isos', instanceId), { recursive: true, force: true });
}
