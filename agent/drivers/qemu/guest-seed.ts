import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GuestAddresses } from '../../../domain/agent-tasks.js';

const run = promisify(execFile);

/** What the guest's first boot is told of itself: the customer's choices and the panel's addresses. */
export interface GuestSetup {
  readonly instance_id: string;
  readonly hostname: string;
  readonly timezone: string;
  readonly ssh_keys: readonly string[];
  /** The root password's hash (SHA-512 crypt, made by the agent): the password is never here. */
  readonly root_hash: string;
  readonly mac: string;
  readonly addresses: GuestAddresses | undefined;
}

// Every value is written as a JSON string, which YAML reads as the same string: no value, however
// it is spelled, can become YAML of its own.
const quoted = (value: string) => JSON.stringify(value);

const cidr = (a: { address: string; prefix: number }) => quoted(`${a.address}/${a.prefix}`);

/**
 * The three files of a cloud-init NoCloud seed: `meta-data` (the instance id and hostname),
 * `user-data` (a cloud-config with the hostname, time zone, SSH keys for the image's login user,
 * and root's password hash) and `network-config` (version 2: the NIC, found by its MAC, with the
 * panel's addresses and gateways, or DHCP where the panel assigned no IPv4 address).
 */
export function seedDocuments(
  setup: GuestSetup,
): Record<'meta-data' | 'user-data' | 'network-config', string> {
  const metaData = [`instance-id: ${quoted(setup.instance_id)}`, `local-hostname: ${quoted(setup.hostname)}`];
  const userData = [
    '#cloud-config',
    `hostname: ${quoted(setup.hostname)}`,
    `fqdn: ${quoted(setup.hostname)}`,
    // The guest's hostname is the whole name the customer chose, as the panel shows it.
    'prefer_fqdn_over_hostname: true',
    `timezone: ${quoted(setup.timezone)}`,
    'ssh_authorized_keys:',
    ...setup.ssh_keys.map((key) => `  - ${quoted(key)}`),
    'chpasswd:',
    '  expire: false',
    '  users:',
    `    - { name: root, password: ${quoted(setup.root_hash)}, type: hash }`,
  ];
  const { ipv4, ipv6 } = setup.addresses ?? { ipv4: null, ipv6: null };
  const addresses = [ipv4, ipv6].filter((a) => a !== null);
  const networkConfig = [
    'version: 2',
    'ethernets:',
    '  eth0:',
    '    match:',
    `      macaddress: ${quoted(setup.mac)}`,
    '    set-name: eth0',
    `    dhcp4: ${ipv4 ? 'false' : 'true'}`,
    ...(addresses.length > 0 ? ['    addresses:', ...addresses.map((a) => `      - ${cidr(a)}`)] : []),
    // `gateway4`/`gateway6` rather than routes: every renderer writes them (ifupdown's without net-tools).
    ...(ipv4?.gateway ? [`    gateway4: ${quoted(ipv4.gateway)}`] : []),
    ...(ipv6?.gateway ? [`    gateway6: ${quoted(ipv6.gateway)}`] : []),
  ];
  const text = (lines: string[]) => `${lines.join('\n')}\n`;
  return {
    'meta-data': text(metaData),
    'user-data': text(userData),
    'network-config': text(networkConfig),
  };
}

/**
 * Writes the seed as the small ISO 9660 filesystem labelled `cidata` that cloud-init's NoCloud
 * source looks for, to `path` (mode 0600: it holds the root password's hash), through a file
 * beside it, so a half-written seed is never attached.
 */
export async function writeSeed(path: string, setup: GuestSetup): Promise<void> {
  const dir = mkdtempSync(`${path}.files-`);
  const partial = `${path}.partial`;
  try {
    const documents = seedDocuments(setup);
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
