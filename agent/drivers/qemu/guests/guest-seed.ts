import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GuestAddresses } from '../../../../domain/agent-tasks.js';
import { type GuestNetworkSet, guestInterfaces } from '../network/guest-interfaces.js';
import {
  type CustomerUserData,
  type PanelSettings,
  quoted,
  text,
  userDataDocument,
} from './seed-user-data.js';

const run = promisify(execFile);

/** What the guest's first boot is told of itself: the customer's choices and the panel's addresses. */
export interface GuestSetup extends PanelSettings {
  readonly instance_id: string;
  readonly mac: string;
  readonly addresses: GuestAddresses | undefined;
  /** Every address and private NIC, once the panel has applied a network set; else the primaries alone. */
  readonly network?: GuestNetworkSet | undefined;
  /** The customer's own user-data, given beside the panel's (seed-user-data.ts); absent: none. */
  readonly user_data?: CustomerUserData | undefined;
}

/**
 * The three files of a cloud-init NoCloud seed: `meta-data` (the instance id and hostname),
 * `user-data` (the panel's cloud-config, with the customer's user-data where there is one:
 * seed-user-data.ts) and `network-config` (version 2: each NIC, found by its MAC, with the panel's
 * addresses and gateways (network/guest-interfaces.ts), or DHCP where the public NIC has no IPv4
 * address).
 */
export function seedDocuments(
  setup: GuestSetup,
): Record<'meta-data' | 'user-data' | 'network-config', string> {
  const metaData = [`instance-id: ${quoted(setup.instance_id)}`, `local-hostname: ${quoted(setup.hostname)}`];
  return {
    'meta-data': text(metaData),
    'user-data': userDataDocument(setup, setup.user_data),
    'network-config': networkConfig(setup),
  };
}

/** The seed's `network-config`: cloud-init's version 2, each NIC by its MAC. */
export function networkConfig(setup: Pick<GuestSetup, 'mac' | 'addresses' | 'network'>): string {
  const interfaces = guestInterfaces(setup.mac, setup.addresses, setup.network);
  return text([
    'version: 2',
    'ethernets:',
    ...interfaces.flatMap((nic) => [
      `  ${nic.name}:`,
      '    match:',
      `      macaddress: ${quoted(nic.mac)}`,
      `    set-name: ${nic.name}`,
      `    dhcp4: ${nic.name === 'eth0' && !nic.addresses.some((a) => !a.includes(':')) ? 'true' : 'false'}`,
      ...(nic.addresses.length > 0
        ? ['    addresses:', ...nic.addresses.map((a) => `      - ${quoted(a)}`)]
        : []),
      // `gateway4`/`gateway6` rather than routes: every renderer writes them (ifupdown's without net-tools).
      ...(nic.gateway4 ? [`    gateway4: ${quoted(nic.gateway4)}`] : []),
      ...(nic.gateway6 ? [`    gateway6: ${quoted(nic.gateway6)}`] : []),
    ]),
  ]);
}

/**
 * Writes the seed as the small ISO 9660 filesystem labelled `cidata` that cloud-init's NoCloud
 * source looks for, to `path` (mode 0600: it holds the root password's hash), through a file
 * beside it, so a half-written seed is never attached.
 */
export function writeSeed(path: string, setup: GuestSetup): Promise<void> {
  return writeSeedDocuments(path, seedDocuments(setup));
}

/**
 * The seed with its `network-config` made anew (a network the panel applied), its other documents
 * as they were: what the guest's next boot reads. A running guest keeps the seed it booted with
 * open; it is told the change over its channel.
 */
export async function replaceSeedNetwork(
  path: string,
  setup: Pick<GuestSetup, 'mac' | 'addresses' | 'network'>,
): Promise<void> {
  if (!existsSync(path)) return;
  const read = async (name: string) =>
    (await run('isoinfo', ['-R', '-i', path, '-x', `/${name}`], { maxBuffer: 1 << 20 })).stdout;
  await writeSeedDocuments(path, {
    'meta-data': await read('meta-data'),
    'user-data': await read('user-data'),
    'network-config': networkConfig(setup),
  });
}

async function writeSeedDocuments(path: string, documents: Record<string, string>): Promise<void> {
  const dir = mkdtempSync(`${path}.files-`);
  const partial = `${path}.partial`;
  try {
    for (const [name, text] of Object.entries(documents))
      writeFileSync(join(dir, name), text, { mode: 0o600 });
    await run('genisoimage', [
      ...['-quiet', '-output', partial, '-volid', 'cidata', '-joliet', '-rock', '-input-charset', 'utf-8'],
      ...Object.keys(documents).map((name) => join(dir, name)),
    ]);
    chmodSync(partial, 0o600);
    renameSync(partial, path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}
