import type { Qmp } from '../guests/qmp.js';

/**
 * The block node a running guest's disk is on (`root`, or a volume's `vol<slot>`): the node it
 * booted or was plugged with, another once a live storage move switched it (a node cannot be
 * renamed). Asked of QEMU, by the disk's device, so that it is never stale.
 */
export async function currentNode(qmp: Qmp, node: string): Promise<string> {
  const device = node === 'root' ? 'root-disk' : node;
  const devices = await qmp.execute<{ qdev?: string; inserted?: { 'node-name'?: string } }[]>('query-block');
  const found = devices.find((d) => d.qdev?.includes(`/peripheral/${device}/`));
  return found?.inserted?.['node-name'] ?? node;
}
