import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_IMAGE, debianGuestMissing } from '../../agent/drivers/qemu/availability.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { upsertImage, upsertLocation, upsertPlan } from '../../db/repositories/catalog.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import { guestKnowsPassword, type QemuHost, qemuHosts } from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A real OS gets what the customer chose: a Debian 12 guest ordered through the Client API with an
 * SSH key, logged in to over SSH with the customer's private key (the agent forwards the guest's
 * port 22 from the host's loopback), and asked for its hostname, time zone and address, which its
 * own cloud-init took from the agent's seed.
 */
const missing = debianGuestMissing();
if (missing) console.warn(`test/qemu/debian-guest skipped: ${missing}`);

const run = promisify(execFile);
/** Under TCG the guest's cloud-init has set it up about 40 s after power-on; a loaded machine is slower. */
const BOOT_TIMEOUT_MS = 300_000;

describe.runIf(!missing)('a Debian guest ordered through the Client API', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  let host: QemuHost;
  let order: { plan: string; location: string };
  /** The instance the first test ordered, which the second goes on with. */
  let ordered: string | undefined;
  const keys = mkdtempSync(join(tmpdir(), 'debian-guest-'));
  const privateKey = join(keys, 'id_ed25519');

  beforeAll(async () => {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'customer', '-f', privateKey]);
    env = await startStack({ agents: true });
    const location = await upsertLocation(env.db, {
      code: `loc-${randomUUID().slice(0, 8)}`,
      name: 'Debian location',
    });
    await seed.uniqueIpv4Pool(env.db, location.id);
    hosts = qemuHosts(env);
    host = await hosts.host(location.id, { AGENT_QEMU_SSH_FORWARD: 'on' });
    const plan = await upsertPlan(env.db, {
      code: `plan-${randomUUID().slice(0, 8)}`,
      name: 'Debian plan',
      cpu_cores: 1,
      memory_mb: 512,
      disk_mb: 3072,
    });
    await upsertImage(env.db, {
      code: DEBIAN_IMAGE,
      name: 'Debian 12',
      os_family: 'debian',
      min_disk_mb: 2048,
    });
    order = { plan: plan.code, location: location.code };
  }, 120_000);
  afterAll(async () => {
    hosts?.killGuests();
    await env?.close();
    rmSync(keys, { recursive: true, force: true });
  });

  const client = (method: string, path: string, body?: unknown) =>
    env.call(env.client, method, `/api/client/cloud${path}`, body);

  const settled = (id: string, status: string) =>
    eventually(
      async () => {
        const shown = await client('GET', `/${id}`);
        return shown.body.attributes.status === status ? (shown.body as Body) : undefined;
      },
      BOOT_TIMEOUT_MS,
      `instance ${status}`,
    );

  /** Runs `command` in the guest as `user`, over the forwarded port, once its sshd takes the key. */
  async function inGuest(id: string, user: string, command: string): Promise<string> {
    const dir = host.state().instances[id]!.dir;
    const attempt = async () => {
      const port = readFileSync(guestFiles(dir).sshPort, 'utf8').trim();
      const { stdout } = await run('ssh', [
        ...['-i', privateKey, '-p', port, '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5'],
        ...['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR'],
        `${user}@127.0.0.1`,
        // cloud-init's last stage sets the time zone: waited for, then asked.
        `cloud-init status --wait >/dev/null; ${command}`,
      ]);
      return stdout;
    };
    // A login refused (the guest still booting) is tried again a little later, not at once.
    const later = () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2000));
    return eventually(() => attempt().catch(later), BOOT_TIMEOUT_MS, 'an SSH login').catch((error: Error) => {
      const console = readFileSync(guestFiles(dir).console, 'utf8').slice(-3000);
      throw new Error(`${error.message}; console:\n${console}`);
    });
  }

  it('logs in with the customer’s key as the image’s user and finds the hostname, time zone and address chosen; a hostname change reaches it at the rebuild', async () => {
    const key = await client('POST', '/ssh-keys', {
      name: `laptop-${randomUUID().slice(0, 6)}`,
      public_key: readFileSync(`${privateKey}.pub`, 'utf8').trim(),
    });
    expect(key.status).toBe(201);
    const created = await client('POST', '/', {
      hostname: 'web-1.example.test',
      plan: order.plan,
      image: DEBIAN_IMAGE,
      location: order.location,
      ssh_keys: [key.body.attributes.uuid],
      timezone: 'Europe/Berlin',
    });
    expect(created.status).toBe(202);
    const id = created.body.attributes.uuid as string;
    const running = await settled(id, 'running');
    const ssh = await client('GET', `/${id}/ssh`);
    expect(ssh.body.attributes.username).toBe('debian');

    const facts = await inGuest(id, 'debian', 'hostname; cat /etc/timezone; ip -4 -o addr show dev eth0');
    const [hostname, timezone, address] = facts.trim().split('\n');
    expect(hostname).toBe('web-1.example.test');
    expect(timezone).toBe('Europe/Berlin');
    expect(address).toContain(` ${running.attributes.primary_ipv4}/24 `);

    // Documented: a setting reaches the guest at its next rebuild, whose task carries it.
    const renamed = await client('PATCH', `/${id}/settings/hostname`, { hostname: 'web-2.example.test' });
    expect(renamed.status).toBe(200);
    const rebuild = await client('POST', `/${id}/rebuild`, {});
    expect(rebuild.status).toBe(202);
    await settled(id, 'running');
    expect((await inGuest(id, 'debian', 'hostname')).trim()).toBe('web-2.example.test');
    ordered = id;
  }, 900_000);

  it('takes root’s password from its seed at the rebuild, a regenerated one over the agent’s channel, and one regenerated while stopped at its next boot', async () => {
    const id = ordered;
    if (!id) throw new Error('the order above failed');
    const dir = host.state().instances[id]!.dir;
    const shown = await client('GET', `/${id}/settings/password`);
    expect(shown.status).toBe(200);
    const rebuilt = shown.body.attributes.password as string;
    // The guest checks it with its own crypt against its /etc/shadow.
    expect(await guestKnowsPassword(dir, 'root', rebuilt)).toBe(true);

    expect((await client('POST', `/${id}/settings/password`)).status).toBe(202);
    await env.operationResult(id);
    const regenerated = (await client('GET', `/${id}/settings/password`)).body.attributes.password as string;
    expect(regenerated).not.toBe(rebuilt);
    expect(await guestKnowsPassword(dir, 'root', regenerated)).toBe(true);
    expect(await guestKnowsPassword(dir, 'root', rebuilt)).toBe(false);

    // Regenerated while stopped: the guest's next boot applies it, once, and says so by id.
    expect((await env.power(id, 'stop')).status).toBe(202);
    await env.operationResult(id);
    expect((await client('POST', `/${id}/settings/password`)).status).toBe(202);
    await env.operationResult(id);
    const whileStopped = (await client('GET', `/${id}/settings/password`)).body.attributes.password as string;
    expect((await env.power(id, 'start')).status).toBe(202);
    await env.operationResult(id);
    await eventually(
      () => /^guest: password reset [0-9a-f]{32} applied$/m.test(host.console(id)),
      BOOT_TIMEOUT_MS,
      'the reset applied at boot',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; console:\n${host.console(id).slice(-3000)}`);
    });
    expect(await guestKnowsPassword(dir, 'root', whileStopped)).toBe(true);
    expect(await guestKnowsPassword(dir, 'root', regenerated)).toBe(false);
  }, 600_000);
});
