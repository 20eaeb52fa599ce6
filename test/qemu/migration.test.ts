import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { guestFiles } from '../../agent/drivers/qemu/guests/guest-process.js';
import { Qmp } from '../../agent/drivers/qemu/guests/qmp.js';
import { guestMac } from '../../agent/drivers/qemu/network/guest-network.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import type { ConvergenceRequest } from '../../domain/migrations/convergence.js';
import type { MigrationMode, MigrationState } from '../../domain/migrations/states.js';
import { secretBox } from '../../platform/secrets.js';
import { requestMigration } from '../../services/migrations/request.js';
import { eventually } from '../support/eventually.js';
import { bearer } from '../support/http.js';
import { migrationEnd } from '../support/migrations.js';
import { channelAnswer } from '../support/move-transport.js';
import {
  guestKnowsPassword,
  type QemuHost,
  type qemuHosts,
  startQemuMigrationStack,
  stoppedCount,
  stopQemuStack,
  ticksPast,
} from '../support/qemu-hosts.js';
import { seed } from '../support/seed.js';
import type { Stack } from '../support/stack.js';

/**
 * Real guests moved between two agent processes with the QEMU driver, through the panel's
 * migration workflow: the guest's console on each side shows whether its memory moved (the count
 * goes on, no boot) or its disk did (a boot that reads the count back).
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu skipped: ${missing}`);

describe.runIf(!missing)('migrations of QEMU guests', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  let admin: { type: 'admin'; userId: string };
  beforeAll(async () => {
    // Long enough to read the source's console before its copy is removed.
    ({ env, hosts } = await startQemuMigrationStack(3000));
    admin = { type: 'admin', userId: (await seed.user(env.db, { admin: true })).id };
  });
  afterAll(() => stopQemuStack({ env, hosts }));

  const migrate = (
    instanceId: string,
    target: QemuHost,
    mode: MigrationMode,
    convergence?: ConvergenceRequest,
  ) =>
    requestMigration(env.deps, admin, {
      instanceId,
      targetId: target.hypervisor.id,
      mode,
      convergence,
      correlationId: null,
    });

  const reached = (migrationId: string, state: MigrationState, timeoutMs = 60_000) =>
    eventually(
      async () => {
        const m = await findMigration(env.db, migrationId);
        return m && (m.state === state || m.history.some((h) => h.state === state)) ? m : undefined;
      },
      timeoutMs,
      `migration ${state}`,
    );

  it('moves a running guest live under its convergence policy: its count goes on on the target with no boot, its seed drive with it, and the downtime is reported', async () => {
    const { source, target, instance } = await hosts.pair();
    // The guest read its seed at boot; the target must attach the very same drive.
    expect(source.console(instance.id)).toContain(
      `guest: seed ${instance.id} hostname web-1.example.test timezone UTC ssh-keys 0`,
    );
    const seedOnSource = readFileSync(guestFiles(source.state().instances[instance.id]!.dir).seed);
    // A convergence policy unlike QEMU's defaults in every figure, post-copy allowed (never started):
    // what QEMU held when the memory began to move is read back into the task's result.
    const convergence = {
      max_downtime_ms: 700,
      bandwidth_mbps: 2000,
      auto_converge: { enabled: true, initial_throttle_pct: 30, step_throttle_pct: 5 },
      post_copy: 'allow',
    } as const;
    const { migrationId, workflowId } = await migrate(instance.id, target, 'LIVE_REQUIRED', convergence);
    await reached(migrationId, 'COMPLETED');
    const sourceTicks = source.ticks(instance.id);
    const live = await env.db
      .selectFrom('agent_tasks')
      .select(['params', 'result'])
      .where('workflow_id', '=', workflowId)
      .where('type', '=', 'migration.live')
      .where('status', '=', 'completed')
      .executeTakeFirstOrThrow();
    expect(live.params.convergence).toMatchObject(convergence);
    expect(live.result?.applied).toEqual({
      max_downtime_ms: 700,
      max_bandwidth_bytes_per_s: 250_000_000,
      auto_converge: true,
      initial_throttle_pct: 30,
      step_throttle_pct: 5,
      post_copy: true,
    });
    expect(source.guestRunning(instance.id)).toBe(false);

    // The source's disk was offered only under the move's transport key, which each agent had
    // from the panel in its disk task; the live move over, neither keeps it, and the channel
    // serves the move to nobody: not plain HTTP, not even the key's holder.
    const { params } = await env.db
      .selectFrom('agent_tasks')
      .select('params')
      .where('hypervisor_id', '=', source.hypervisor.id)
      .where('type', '=', 'disk.export')
      .where('workflow_id', '=', workflowId)
      .executeTakeFirstOrThrow();
    const key = secretBox(env.config.SECRETS_KEY).open(
      (params as { transport_secret: string }).transport_secret,
    );
    const { exports, channel_port } = source.state();
    const offer = `https://127.0.0.1:${channel_port}/migrations/${migrationId}/disk`;
    expect(await channelAnswer(offer, 'plain')).toHaveProperty('error');
    expect(await channelAnswer(offer, { migrationId, key })).toEqual({ error: 'EPROTO' });
    expect(exports[migrationId]).toBeDefined();
    for (const side of [source, target]) expect(JSON.stringify(side.state())).not.toContain(key);
    const tasks = await env.db
      .selectFrom('agent_tasks')
      .select(['type', 'params'])
      .where('hypervisor_id', 'in', [source.hypervisor.id, target.hypervisor.id])
      .execute();
    const ofMigration = tasks.filter((t) => JSON.stringify(t.params).includes(migrationId));
    expect(ofMigration.map((t) => t.type)).toContain('disk.transfer');
    for (const task of ofMigration)
      expect(JSON.stringify(task.params)).not.toMatch(/https?:|127\.0\.0\.1|\.qcow2|\/tmp\//);
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });

    const migration = (await findMigration(env.db, migrationId))!;
    expect(migration.strategy).toBe('live');
    const downtime = migration.history.find((h) => h.state === 'LIVE_MIGRATING')?.detail as {
      downtime_ms: number;
    };
    expect(downtime.downtime_ms).toBeGreaterThanOrEqual(0);
    expect(downtime.downtime_ms).toBeLessThan(5000);
    // What QEMU reported while the memory moved, and the downtime it measured (docs/migration.md
    // "Live progress"), kept on the record.
    expect(migration.live_progress?.figures?.transferred_bytes).toBeGreaterThan(0);
    expect(migration.live_progress?.figures?.total_bytes).toBeGreaterThan(0);
    expect(migration.live_progress?.downtime_ms).toBe(downtime.downtime_ms);
    expect(migration.live_progress?.total_ms).toBeGreaterThan(0);
    expect(await hosts.placement(instance.id)).toEqual({
      hypervisor_id: target.hypervisor.id,
      status: 'running',
    });

    const last = Math.max(...sourceTicks);
    const targetTicks = await ticksPast(target, instance.id, last + 1);
    // The memory moved: the target never booted, and its first tick follows the source's last.
    expect(target.console(instance.id)).not.toContain('guest: booted');
    expect(targetTicks[0]).toBe(last + 1);
    expect(source.state().instances[instance.id]).toBeUndefined();
    // Its devices came along: the NIC with the instance's MAC, and the channel, which answers.
    const targetDir = target.state().instances[instance.id]!.dir;
    const nics = await Qmp.with(guestFiles(targetDir).qmp, (qmp) =>
      qmp.execute<{ name: string; 'main-mac': string }[]>('query-rx-filter'),
    );
    expect(nics.map((n) => n['main-mac'])).toEqual([guestMac(instance.id)]);
    expect(readFileSync(guestFiles(targetDir).seed).equals(seedOnSource)).toBe(true);
    expect(await guestKnowsPassword(targetDir, 'root', 'not the password')).toBe(false);

    // And it stops on the target through the API, by its power button.
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    expect(target.guestRunning(instance.id)).toBe(false);
    expect(target.console(instance.id)).toContain('guest: shutting down');
  }, 240_000);

  it('moves a running guest cold: its disk arrives verified, and the count read from it goes on', async () => {
    const { source, target, instance } = await hosts.pair();
    const { migrationId, workflowId } = await migrate(instance.id, target, 'COLD');
    await reached(migrationId, 'COMPLETED', 90_000);
    const sourceTicks = source.ticks(instance.id);
    const stoppedAt = stoppedCount(source.console(instance.id));
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });

    const migration = (await findMigration(env.db, migrationId))!;
    expect(migration.strategy).toBe('cold');
    expect(migration.history.find((h) => h.state === 'VERIFYING_DISK')?.detail).toMatchObject({
      checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await hosts.placement(instance.id)).toEqual({
      hypervisor_id: target.hypervisor.id,
      status: 'running',
    });

    expect(stoppedAt).toBeGreaterThanOrEqual(Math.max(...sourceTicks));
    const targetTicks = await ticksPast(target, instance.id, stoppedAt + 1);
    // A fresh boot on the target that read the counter file the source left on its disk.
    expect(target.console(instance.id).split('guest: booted')).toHaveLength(2);
    expect(targetTicks[0]).toBe(stoppedAt + 1);
  }, 240_000);

  it('moves a stopped guest cold: it stays stopped there, and started, counts on from its disk and takes the password reset while it was stopped', async () => {
    const { source, target, instance } = await hosts.pair();
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await env.operationResult(instance.id);
    const stoppedAt = stoppedCount(source.console(instance.id));
    // Reset while stopped, on the source: the hash waiting for its next boot moves with it.
    const passwordUrl = `${env.url}/api/client/cloud/${instance.id}/settings/password`;
    const before = (
      (await (await fetch(passwordUrl, { headers: bearer(env.client.key) })).json()) as {
        attributes: { password: string };
      }
    ).attributes.password;
    const reset = await fetch(passwordUrl, {
      method: 'POST',
      headers: { ...bearer(env.client.key), 'X-Request-Id': randomUUID() },
    });
    expect(reset.status).toBe(202);
    await env.operationResult(instance.id);
    const shown = await fetch(passwordUrl, { headers: bearer(env.client.key) });
    expect(shown.status).toBe(200);
    const { password } = ((await shown.json()) as { attributes: { password: string } }).attributes;

    const { workflowId } = await migrate(instance.id, target, 'COLD');
    expect(await migrationEnd(env, workflowId)).toEqual({ state: 'CLEANED_UP' });
    expect(await hosts.placement(instance.id)).toEqual({
      hypervisor_id: target.hypervisor.id,
      status: 'stopped',
    });
    expect(target.guestRunning(instance.id)).toBe(false);

    expect((await env.power(instance.id, 'start')).status).toBe(202);
    await env.operationResult(instance.id);
    const ticks = await ticksPast(target, instance.id, stoppedAt);
    expect(ticks[0]).toBe(stoppedAt + 1);
    const targetDir = target.state().instances[instance.id]!.dir;
    expect(await guestKnowsPassword(targetDir, 'root', password)).toBe(true);
    expect(await guestKnowsPassword(targetDir, 'root', before)).toBe(false);
  }, 240_000);

  it('a failure past the point of no return leaves the guest running on the target, the source stopped, and the migration in RECOVERY_REQUIRED', async () => {
    const { source, target, instance } = await hosts.pair();
    const { migrationId } = await migrate(instance.id, target, 'LIVE_REQUIRED');
    // The target's agent dies as the memory moves: the guest arrives, but nobody takes the
    // target's next task.
    await reached(migrationId, 'LIVE_MIGRATING');
    target.agent.process.kill('SIGKILL');

    const migration = await eventually(
      async () => {
        const m = await findMigration(env.db, migrationId);
        return m?.state === 'RECOVERY_REQUIRED' ? m : undefined;
      },
      90_000,
      'RECOVERY_REQUIRED',
    );
    expect(migration.history.map((h) => h.state)).toContain('LIVE_MIGRATING');
    expect(source.guestRunning(instance.id)).toBe(false);
    const last = Math.max(...source.ticks(instance.id));
    const arrived = await eventually(
      () => {
        const guest = target.arriving(migrationId);
        return guest.ticks.some((t) => t > last + 1) ? guest : undefined;
      },
      30_000,
      'ticks on the target',
    );
    expect(arrived.running).toBe(true);
    expect(arrived.console).not.toContain('guest: booted');
    expect(arrived.ticks[0]).toBe(last + 1);
  }, 240_000);
});
