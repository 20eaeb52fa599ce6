import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { eventually } from '../support/eventually.js';
import { bearer } from '../support/http.js';
import {
  guestKnowsPassword,
  qemuAccelerator,
  qemuHosts,
  stoppedCount,
  ticksPast,
} from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Real guests: agent processes with the QEMU driver, instances made and powered through the
 * panel's API, and the guest's own serial console as the proof that it runs.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu skipped: ${missing}`);

describe.runIf(!missing)('guests under QEMU', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  beforeAll(async () => {
    env = await startStack({ agents: true });
    hosts = qemuHosts(env);
  });
  afterAll(async () => {
    hosts?.killGuests();
    await env?.close();
  });

  const statusOf = async (id: string) =>
    (await env.db.selectFrom('instances').select('status').where('id', '=', id).executeTakeFirstOrThrow())
      .status;

  it('creates a guest that ticks; stopped and started, it ticks on from the count kept on its disk', async () => {
    const host = await hosts.host((await seed.location(env.db)).id, {
      AGENT_METRICS_INTERVAL_MS: '1000',
      AGENT_CAPABILITIES: 'live_migration,hot_resize,cpu_host_passthrough,gpu_passthrough',
    });
    // The heartbeat says what the host really offers: the host's CPU only under KVM, no GPU; its
    // QEMU grows running guests.
    const ready = JSON.parse(
      host.agent.output
        .join('')
        .split('\n')
        .find((l) => l.includes('QEMU driver ready'))!,
    ) as {
      accelerator: string;
      accelerator_reason: string;
    };
    // The run's probe chose the accelerator; the agent was told it and says so.
    expect(ready.accelerator).toBe(qemuAccelerator());
    expect(ready.accelerator_reason).toBe(`AGENT_QEMU_ACCEL=${qemuAccelerator()}`);
    expect(await host.reportedCapabilities()).toEqual(
      ready.accelerator === 'kvm'
        ? ['live_migration', 'hot_resize', 'cpu_host_passthrough']
        : ['live_migration', 'hot_resize'],
    );
    const instance = await hosts.instanceOn(host);
    expect(await statusOf(instance.id)).toBe('running');
    await ticksPast(host, instance.id, 2);

    // Its metrics are the QEMU process's and the guest disk's: it writes its count every second.
    const sample = await eventually(
      async () => {
        const res = await fetch(`${env.url}/api/client/cloud/${instance.id}/metrics`, {
          headers: bearer(env.client.key),
        });
        const body = (await res.json()) as {
          attributes: {
            samples: { cpu_percent: number; memory_used_mb: number; disk_write_bytes: number }[];
          };
        };
        return body.attributes.samples.find((s) => s.disk_write_bytes > 0 && s.cpu_percent > 0);
      },
      20_000,
      'a sample of the guest writing',
    );
    expect(sample.memory_used_mb).toBeGreaterThan(0);
    expect(sample.memory_used_mb).toBeLessThanOrEqual(128);

    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    expect(await statusOf(instance.id)).toBe('stopped');
    expect(host.guestRunning(instance.id)).toBe(false);
    // The ACPI power button: the guest shut itself down, its disk synced.
    expect(host.console(instance.id)).toContain('guest: shutting down');
    const last = Math.max(...host.ticks(instance.id));
    const stoppedAt = stoppedCount(host.console(instance.id));
    expect(stoppedAt).toBeGreaterThanOrEqual(last);

    expect((await env.power(instance.id, 'start')).status).toBe(202);
    await env.operationResult(instance.id);
    expect(await statusOf(instance.id)).toBe('running');
    await ticksPast(host, instance.id, stoppedAt);
    // A new boot, and the count read back from the disk: no tick 1 again.
    const boots = host.console(instance.id).split('guest: booted');
    expect(boots).toHaveLength(3);
    expect(/^tick (\d+)$/m.exec(boots[2]!)?.[1]).toBe(String(stoppedAt + 1));
  }, 180_000);

  it('has the created instance’s password; resets it through the panel, twice: the guest’s /etc/shadow verifies each new one; a stopped guest takes only its latest reset at its next boot, and a running reset after it wins', async () => {
    const host = await hosts.host((await seed.location(env.db)).id);
    const instance = await hosts.instanceOn(host);
    const dir = host.state().instances[instance.id]!.dir;
    const passwordUrl = `${env.url}/api/client/cloud/${instance.id}/settings/password`;
    // The password shown after the creation is the one the guest's first boot took.
    const initial = await fetch(passwordUrl, { headers: bearer(env.client.key) });
    expect(initial.status).toBe(200);
    const first = ((await initial.json()) as { attributes: { password: string } }).attributes.password;
    expect(await guestKnowsPassword(dir, 'root', first)).toBe(true);
    const seen: string[] = [first];
    const reset = async (label: string) => {
      const res = await fetch(passwordUrl, {
        method: 'POST',
        headers: { ...bearer(env.client.key), 'X-Request-Id': randomUUID() },
      });
      expect(res.status, label).toBe(202);
      await env.operationResult(instance.id);
      const latest = await env.latestOperation(instance.id);
      expect(latest.kind, label).toBe('reset_password');
      expect(latest.state, label).toBe('succeeded');
      const shown = await fetch(passwordUrl, { headers: bearer(env.client.key) });
      expect(shown.status, label).toBe(200);
      return ((await shown.json()) as { attributes: { password: string } }).attributes.password;
    };
    const restart = async (action: 'stop' | 'start') => {
      expect((await env.power(instance.id, action)).status).toBe(202);
      await env.operationResult(instance.id);
      expect(await statusOf(instance.id)).toBe(action === 'stop' ? 'stopped' : 'running');
    };
    /** Of all the passwords the instance had, only `current` opens the guest. */
    const onlyCurrent = async (current: string, label: string) => {
      if (!seen.includes(current)) seen.push(current);
      expect(await guestKnowsPassword(dir, 'root', current), label).toBe(true);
      for (const old of seen.filter((p) => p !== current))
        expect(await guestKnowsPassword(dir, 'root', old), label).toBe(false);
    };
    for (const round of [1, 2]) {
      await onlyCurrent(await reset(`reset ${round}`), `reset ${round}`);
      expect(await statusOf(instance.id)).toBe('running');
    }

    // Stopped, the guest takes a reset at its next boot: reset twice, only the latest opens it.
    await restart('stop');
    const whileStopped = [await reset('stopped reset 1'), await reset('stopped reset 2')];
    expect(await statusOf(instance.id)).toBe('stopped');
    expect(host.guestRunning(instance.id)).toBe(false);
    await restart('start');
    seen.push(whileStopped[0]!);
    await onlyCurrent(whileStopped[1]!, 'after the stopped resets');
    // The guest said it applied it, and the agent dropped the hash it kept for the boot.
    await eventually(() => !existsSync(guestFiles(dir).rootReset), 30_000, 'the applied reset dropped');

    // A reset of the running guest after that one is the newest, across a stop and start too.
    const running = await reset('running reset');
    await onlyCurrent(running, 'running reset');
    await restart('stop');
    await restart('start');
    await onlyCurrent(running, 'running reset, after a stop and start');

    // Neither the agent's log nor the guest's console ever had a password or its hash.
    for (const password of seen) {
      expect(host.agent.output.join('')).not.toContain(password);
      expect(host.console(instance.id)).not.toContain(password);
    }
    expect(host.console(instance.id)).not.toContain('$6$');
  }, 300_000);

  it('keeps its guests when the agent is killed, and the restarted agent takes them back', async () => {
    const host = await hosts.host((await seed.location(env.db)).id);
    const instance = await hosts.instanceOn(host);
    await ticksPast(host, instance.id, 1);

    host.agent.process.kill('SIGKILL');
    await host.agent.exited;
    const before = Math.max(...host.ticks(instance.id));
    await ticksPast(host, instance.id, before + 1);
    expect(host.guestRunning(instance.id)).toBe(true);

    host.agent.restart();
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    expect(await statusOf(instance.id)).toBe('stopped');
    await eventually(() => !host.guestRunning(instance.id), 10_000, 'the guest to stop');
    expect(host.console(instance.id)).toContain('guest: shutting down');
  }, 180_000);
});
