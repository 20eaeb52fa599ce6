import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import {
  type GuestSetup,
  networkConfig,
  replaceSeedNetwork,
  seedDocuments,
  writeSeed,
} from '../../agent/drivers/qemu/guests/guest-seed.js';
import { guestInterfaces, interfaceLines } from '../../agent/drivers/qemu/network/guest-interfaces.js';
import { userNetdev } from '../../agent/drivers/qemu/network/guest-network.js';

/**
 * The cloud-init seed the QEMU driver gives each guest, and the user-mode network shaped like the
 * panel's: what they say, read back from the ISO 9660 filesystem genisoimage wrote.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu/guest-seed skipped: ${missing}`);

const setup: GuestSetup = {
  instance_id: '7f0c3a52-56b1-4e8c-9a8e-0c6c1f0c2b11',
  hostname: 'web-1.example.test',
  timezone: 'Europe/Berlin',
  ssh_keys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl laptop'],
  root_hash: '$6$salt$hash',
  mac: '02:11:22:33:44:55',
  addresses: {
    ipv4: { address: '192.0.2.10', prefix: 24, gateway: '192.0.2.1' },
    ipv6: { address: '2001:db8::10', prefix: 64, gateway: '2001:db8::1' },
  },
};

/** A network the panel applied: an extra address, a floating one, the primary, a private NIC. */
const network = {
  revision: 3,
  addresses: [
    {
      address: '192.0.2.11',
      prefix: 24,
      gateway: '192.0.2.1',
      family: 4 as const,
      primary: false,
      floating: false,
    },
    {
      address: '203.0.113.5',
      prefix: 24,
      gateway: '203.0.113.1',
      family: 4 as const,
      primary: false,
      floating: true,
    },
    {
      address: '192.0.2.10',
      prefix: 24,
      gateway: '192.0.2.1',
      family: 4 as const,
      primary: true,
      floating: false,
    },
  ],
  nics: [
    {
      network_id: '5d8e7c1a-1111-4a2b-9c3d-0e1f2a3b4c5d',
      mac: '02:00:0e:1f:2a:3b',
      address: '10.8.0.2',
      prefix: 24,
    },
  ],
};

/** The parts of a MIME multi-part as cloud-init reads them: type, file name and decoded body, in order. */
function mimeParts(document: string) {
  const [head, ...rest] = document.split('\n\n');
  const boundary = /boundary="([^"]+)"/.exec(head!)?.[1];
  expect(head).toContain('MIME-Version: 1.0');
  if (!boundary) throw new Error('no boundary');
  const body = [rest.join('\n\n')].join('');
  expect(body.trimEnd().endsWith(`--${boundary}--`)).toBe(true);
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => {
      const [headers, encoded] = chunk.replace(/^\n/, '').split('\n\n') as [string, string];
      expect(headers).toContain('Content-Transfer-Encoding: base64');
      return {
        type: /^Content-Type: ([^;]+);/m.exec(headers)?.[1],
        name: /filename="([^"]+)"/.exec(headers)?.[1],
        body: Buffer.from(encoded.replace(/\n/g, ''), 'base64').toString('utf8'),
      };
    });
}

describe('the seed documents', () => {
  it('carry the instance id, hostname, time zone, keys, root hash and the panel’s addresses', () => {
    const documents = seedDocuments(setup);
    expect(documents['meta-data']).toBe(
      'instance-id: "7f0c3a52-56b1-4e8c-9a8e-0c6c1f0c2b11"\nlocal-hostname: "web-1.example.test"\n',
    );
    const userData = documents['user-data'];
    expect(userData.startsWith('#cloud-config\n')).toBe(true);
    expect(userData).toContain('timezone: "Europe/Berlin"\n');
    expect(userData).toContain(`ssh_authorized_keys:\n  - "${setup.ssh_keys[0]}"\n`);
    expect(userData).toContain('{ name: root, password: "$6$salt$hash", type: hash }');
    // A udev rule puts hot-added vCPUs and memory online (a hot plan change).
    expect(userData).toContain(
      'write_files:\n  - path: "/etc/udev/rules.d/80-cloudsvc-hotplug.rules"\n    content: "SUBSYSTEM==\\"cpu\\", ACTION==\\"add\\", TEST==\\"online\\", ATTR{online}==\\"0\\", ATTR{online}=\\"1\\"\\n',
    );
    expect(documents['network-config']).toBe(
      [
        'version: 2',
        'ethernets:',
        '  eth0:',
        '    match:',
        '      macaddress: "02:11:22:33:44:55"',
        '    set-name: eth0',
        '    dhcp4: false',
        '    addresses:',
        '      - "192.0.2.10/24"',
        '      - "2001:db8::10/64"',
        '    gateway4: "192.0.2.1"',
        '    gateway6: "2001:db8::1"',
        '',
      ].join('\n'),
    );
  });

  it('carry every address of an applied network, the primary first, a floating one as a single host, and a NIC per private network', () => {
    expect(networkConfig({ ...setup, network })).toBe(
      [
        'version: 2',
        'ethernets:',
        '  eth0:',
        '    match:',
        '      macaddress: "02:11:22:33:44:55"',
        '    set-name: eth0',
        '    dhcp4: false',
        '    addresses:',
        '      - "192.0.2.10/24"',
        '      - "192.0.2.11/24"',
        '      - "203.0.113.5/32"',
        '    gateway4: "192.0.2.1"',
        '  pnet0:',
        '    match:',
        '      macaddress: "02:00:0e:1f:2a:3b"',
        '    set-name: pnet0',
        '    dhcp4: false',
        '    addresses:',
        '      - "10.8.0.2/24"',
        '',
      ].join('\n'),
    );
    // What a running guest is told over its channel: the same, one line per NIC.
    expect(interfaceLines(guestInterfaces(setup.mac, setup.addresses, network))).toBe(
      '02:11:22:33:44:55 192.0.2.10/24,192.0.2.11/24,203.0.113.5/32 192.0.2.1 -\n02:00:0e:1f:2a:3b 10.8.0.2/24 - -\n',
    );
  });

  it('ask for DHCP where the panel assigned no IPv4 address', () => {
    const network = seedDocuments({ ...setup, addresses: undefined })['network-config'];
    expect(network).toContain('dhcp4: true');
    expect(network).not.toContain('addresses:');
  });

  it('give the customer’s user-data first and the panel’s after it, the panel’s settings replacing theirs', () => {
    const customer = '#cloud-config\nhostname: mine\nwrite_files:\n  - path: /etc/mine\n    content: x\n';
    const userData = seedDocuments({ ...setup, user_data: { kind: 'cloud-config', content: customer } })[
      'user-data'
    ];
    const parts = mimeParts(userData);
    expect(parts.map((p) => [p.type, p.name])).toEqual([
      ['text/cloud-config', 'customer-user-data'],
      ['text/cloud-config', 'cloudsvc-additions.cfg'],
      ['text/cloud-config', 'cloudsvc-settings.cfg'],
    ]);
    // The customer's bytes as given; the panel's additions join its lists; its settings replace.
    expect(parts[0]!.body).toBe(customer);
    expect(parts[1]!.body).toMatch(
      /^#cloud-config\nmerge_how: "dict\(no_replace,recurse_list\)\+list\(append\)\+str\(\)"\nwrite_files:\n/,
    );
    expect(parts[2]!.body).toMatch(
      /^#cloud-config\nmerge_how: "dict\(replace\)\+list\(replace\)\+str\(\)"\nhostname: "web-1.example.test"\n/,
    );
    expect(parts[2]!.body).toContain('preserve_hostname: false\n');
    expect(parts[2]!.body).toContain('{ name: root, password: "$6$salt$hash", type: hash }');
    expect(parts[2]!.body).not.toContain('write_files');

    const script = '#!/bin/sh\necho "--cloudsvc-user-data--" > /etc/mine\n';
    const withScript = mimeParts(
      seedDocuments({ ...setup, user_data: { kind: 'script', content: script } })['user-data'],
    );
    expect(withScript.map((p) => p.type)).toEqual([
      'text/x-shellscript',
      'text/cloud-config',
      'text/cloud-config',
    ]);
    expect(withScript[0]!.body).toBe(script);
    // Without one, the panel's cloud-config alone, as before user-data.
    expect(seedDocuments(setup)['user-data']).toBe(
      seedDocuments({ ...setup, user_data: undefined })['user-data'],
    );
    expect(seedDocuments(setup)['user-data'].startsWith('#cloud-config\nhostname: ')).toBe(true);
  });

  it('keep every value one quoted string, whatever it holds', () => {
    const userData = seedDocuments({ ...setup, timezone: 'UTC"\nruncmd: [reboot]' })['user-data'];
    expect(userData).toContain('timezone: "UTC\\"\\nruncmd: [reboot]"\n');
    expect(userData).not.toMatch(/^runcmd/m);
  });
});

describe('the user-mode network', () => {
  it('is the pool’s network, its gateway QEMU’s side, its first lease the instance’s address', () => {
    expect(userNetdev(setup.addresses)).toBe(
      'user,id=net0,restrict=on,net=192.0.2.0/24,host=192.0.2.1,dns=192.0.2.254,dhcpstart=192.0.2.10',
    );
  });

  it('keeps QEMU’s own network for a pool too small to share, and without an address', () => {
    const tiny = { address: '192.0.2.9', prefix: 30, gateway: '192.0.2.10' };
    expect(userNetdev({ ipv4: tiny, ipv6: null })).toBe('user,id=net0,restrict=on');
    expect(userNetdev(undefined)).toBe('user,id=net0,restrict=on');
  });

  it('gives DNS an address neither the guest nor the gateway has', () => {
    const top = { address: '192.0.2.254', prefix: 24, gateway: '192.0.2.253' };
    expect(userNetdev({ ipv4: top, ipv6: null })).toContain('host=192.0.2.253,dns=192.0.2.252');
  });

  it('forwards the guest’s SSH port from the host’s loopback when asked', () => {
    expect(userNetdev(setup.addresses, 40022)).toMatch(/,hostfwd=tcp:127\.0\.0\.1:40022-192\.0\.2\.10:22$/);
    expect(userNetdev(undefined, 40022)).toMatch(/,hostfwd=tcp:127\.0\.0\.1:40022-:22$/);
  });
});

describe.runIf(!missing)('the seed drive', () => {
  const dir = mkdtempSync(join(tmpdir(), 'guest-seed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is an ISO 9660 filesystem labelled cidata holding the three documents, readable by its owner only', async () => {
    const path = join(dir, 'seed.iso');
    await writeSeed(path, setup);
    await writeSeed(path, setup);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const info = execFileSync('isoinfo', ['-d', '-i', path], { encoding: 'utf8' });
    expect(info).toMatch(/^Volume id: cidata$/m);
    const read = (name: string) =>
      execFileSync('isoinfo', ['-R', '-i', path, '-x', `/${name}`], { encoding: 'utf8' });
    const documents = seedDocuments(setup);
    for (const name of ['meta-data', 'user-data', 'network-config'] as const)
      expect(read(name)).toBe(documents[name]);

    // A network applied later: the network-config is made anew, the other documents kept as they were.
    await replaceSeedNetwork(path, { ...setup, network });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(read('network-config')).toBe(networkConfig({ ...setup, network }));
    expect(read('meta-data')).toBe(documents['meta-data']);
    expect(read('user-data')).toBe(documents['user-data']);
  });
});
