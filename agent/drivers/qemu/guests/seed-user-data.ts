import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';

/** The customer's own user-data, as the task gives it: a cloud-config or a script, its text as given. */
export type CustomerUserData = NonNullable<AgentTaskParams<'instance.create'>['user_data']>;

/** What the panel sets in the guest, which the customer's user-data does not change. */
export interface PanelSettings {
  readonly hostname: string;
  readonly timezone: string;
  readonly ssh_keys: readonly string[];
  /** The root password's hash (SHA-512 crypt, made by the agent): the password is never here. */
  readonly root_hash: string;
}

/** Where the guest's udev rule for hot-added vCPUs and memory is written (cloud-init `write_files`). */
export const HOTPLUG_RULES_PATH = '/etc/udev/rules.d/80-cloudsvc-hotplug.rules';
const HOTPLUG_RULES = [
  'SUBSYSTEM=="cpu", ACTION=="add", TEST=="online", ATTR{online}=="0", ATTR{online}="1"',
  'SUBSYSTEM=="memory", ACTION=="add", TEST=="state", ATTR{state}=="offline", ATTR{state}="online"',
  '',
].join('\n');

// Every value is written as a JSON string, which YAML reads as the same string: no value, however
// it is spelled, can become YAML of its own.
export const quoted = (value: string) => JSON.stringify(value);
export const text = (lines: string[]) => `${lines.join('\n')}\n`;

/**
 * The panel's settings: the hostname (the whole name the customer chose, as the panel shows it),
 * the time zone, the SSH keys for the image's login user and root's password hash.
 */
const settingsLines = (s: PanelSettings) => [
  `hostname: ${quoted(s.hostname)}`,
  `fqdn: ${quoted(s.hostname)}`,
  'prefer_fqdn_over_hostname: true',
  // Said outright, so that no user-data's `preserve_hostname: true` keeps the image's name.
  'preserve_hostname: false',
  `timezone: ${quoted(s.timezone)}`,
  'ssh_authorized_keys:',
  ...s.ssh_keys.map((key) => `  - ${quoted(key)}`),
  'chpasswd:',
  '  expire: false',
  '  users:',
  `    - { name: root, password: ${quoted(s.root_hash)}, type: hash }`,
];

// vCPUs and memory added to the running guest (a hot plan change, resize.ts) come offline, and the
// kernel onlines no CPU by itself: udev puts each online as it arrives.
const additionLines = [
  'write_files:',
  `  - path: ${quoted(HOTPLUG_RULES_PATH)}`,
  `    content: ${quoted(HOTPLUG_RULES)}`,
];

/**
 * cloud-init's own merge rules (its `merge_how`), for the panel's parts that follow the
 * customer's: the additions join the customer's lists (their `write_files` and the panel's both
 * written); the settings replace whatever the customer's cloud-config said under the same keys.
 */
const ADDITIONS_MERGE = 'dict(no_replace,recurse_list)+list(append)+str()';
const SETTINGS_MERGE = 'dict(replace)+list(replace)+str()';

/**
 * The seed's `user-data`. The panel's alone: one cloud-config. With the customer's: a MIME
 * multi-part whose parts cloud-init reads in order, the customer's first, then the panel's
 * additions and the panel's settings, each merged by its own `merge_how`, so the panel's settings
 * come out as the panel wrote them (docs/qemu.md "The customer's user-data"). A customer's script
 * is a part of its own, run by cloud-init's `scripts-user` at the end of the first boot.
 */
export function userDataDocument(settings: PanelSettings, customer?: CustomerUserData): string {
  if (!customer) return text(['#cloud-config', ...settingsLines(settings), ...additionLines]);
  return multipart([
    {
      type: customer.kind === 'script' ? 'text/x-shellscript' : 'text/cloud-config',
      name: 'customer-user-data',
      body: customer.content,
    },
    {
      type: 'text/cloud-config',
      name: 'cloudsvc-additions.cfg',
      body: text(['#cloud-config', `merge_how: ${quoted(ADDITIONS_MERGE)}`, ...additionLines]),
    },
    {
      type: 'text/cloud-config',
      name: 'cloudsvc-settings.cfg',
      body: text(['#cloud-config', `merge_how: ${quoted(SETTINGS_MERGE)}`, ...settingsLines(settings)]),
    },
  ]);
}

// Each part's body is base64, whose lines never begin with `--`: no body can hold the boundary.
const BOUNDARY = 'cloudsvc-user-data';

function multipart(parts: { type: string; name: string; body: string }[]): string {
  const lines = [`Content-Type: multipart/mixed; boundary="${BOUNDARY}"`, 'MIME-Version: 1.0', ''];
  for (const part of parts) {
    lines.push(
      `--${BOUNDARY}`,
      `Content-Type: ${part.type}; charset="utf-8"`,
      'MIME-Version: 1.0',
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="${part.name}"`,
      '',
      ...(Buffer.from(part.body, 'utf8')
        .toString('base64')
        .match(/.{1,76}/g) ?? []),
    );
  }
  lines.push(`--${BOUNDARY}--`);
  return text(lines);
}
