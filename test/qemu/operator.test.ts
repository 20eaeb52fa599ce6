import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { secretBox } from '../../platform/secrets.js';
import { type CliRun, operatorCli, settingsOf } from '../cli/operator-cli.js';
import { eventually } from '../support/eventually.js';
import type { Body } from '../support/http.js';
import {
  type QemuHost,
  type qemuHosts,
  startQemuMigrationStack,
  stoppedCount,
  stopQemuStack,
  ticksPast,
} from '../support/qemu-hosts.js';
import type { Stack } from '../support/stack.js';

/**
 * Real guests moved the way an operator moves them (issue 12's "done when"): by the CLI's
 * commands, run in process with the real command table, and by the admin API with an application
 * key; the guest's console on each side is the proof, as in migration.test.ts.
 */
const missing = qemuGuestsMissing();
if (missing) console.warn(`test/qemu skipped: ${missing}`);

describe.runIf(!missing)('QEMU guests moved by the operator', () => {
  let env: Stack;
  let hosts: ReturnType<typeof qemuHosts>;
  beforeAll(async () => {
    // Long enough to read the source's console once the migration is seen COMPLETED.
    ({ env, hosts } = await startQemuMigrationStack(5000));
  });
  afterAll(() => stopQemuStack({ env, hosts }));

  const cli = (args: string[]) => operatorCli(args, { settings: settingsOf(env.config) });
  const admin = (method: string, path: string, body?: unknown) =>
    env.admin.call(method, `/admin/cloudsvc${path}`, body);

  /** The transfer token the migration gave its target, in clear (it is kept sealed in the task). */
  async function transferTokenOf(workflowId: string) {
    const { params } = await env.db
      .selectFrom('agent_tasks')
      .select('params')
      .where('workflow_id', '=', workflowId)
      .where('type', '=', 'disk.transfer')
      .executeTakeFirstOrThrow();
    const sealed = (params as { transfer_token: string }).transfer_token;
    return { sealed, token: secretBox(env.config.SECRETS_KEY).open(sealed) };
  }

  /** SPEC.md §6 rule 2: what the operator is shown holds no transfer token, clear or sealed. */
  function expectNoToken(shown: string, { sealed, token }: { sealed: string; token: string }) {
    expect(token).toMatch(/^cst_/);
    expect(shown).not.toContain(token);
    expect(shown).not.toContain(sealed);
    expect(shown).not.toContain('cst_');
    expect(shown).not.toContain('sealed:');
  }

  /** The preflight judges the capabilities the panel holds; the agents' heartbeats advertise them too. */
  async function expectLiveCapable(...pair: QemuHost[]) {
    for (const host of pair) {
      expect(await host.reportedCapabilities()).toContain('live_migration');
      expect((await findHypervisor(env.db, host.hypervisor.id))?.capabilities).toContain('live_migration');
    }
  }

  it('moves a running guest live by cloudsvc:migration:start, followed by cloudsvc:migration:status: the count goes on with no boot', async () => {
    const { source, target, instance } = await hosts.pair();
    await expectLiveCapable(source, target);
    const shown: CliRun[] = [];
    const run = async (args: string[]) => {
      const done = await cli(args);
      shown.push(done);
      return done;
    };

    const preflight = await run([
      'cloudsvc:migration:preflight',
      instance.id,
      `--target=${target.hypervisor.id}`,
      '--mode=LIVE_REQUIRED',
      '--json',
    ]);
    expect(preflight.code, preflight.stderr).toBe(0);
    expect(preflight.json().attributes).toMatchObject({
      ok: true,
      mode: 'LIVE_REQUIRED',
      strategy: 'live',
      blockers: [],
      source: { uuid: source.hypervisor.id },
      target: { uuid: target.hypervisor.id },
      strategies: { LIVE_REQUIRED: 'live', COLD: 'cold' },
    });

    // No terminal here: --force is what lets a script start it, and it is warned.
    const start = await run([
      'cloudsvc:migration:start',
      instance.id,
      `--target=${target.hypervisor.id}`,
      '--mode=LIVE_REQUIRED',
      '--force',
      '--no-wait',
      '--json',
    ]);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stderr).toContain('warning: --force: starting the migration without confirmation');
    const requested = start.json().attributes;
    expect(requested).toMatchObject({ instance_uuid: instance.id, mode: 'LIVE_REQUIRED', strategy: 'live' });
    expect(requested.requested_by).toMatch(/^system:cli:/);

    const completed: Body = await eventually(
      async () => {
        const status = await run(['cloudsvc:migration:status', requested.uuid, '--json']);
        const m = status.code === 0 ? status.json().attributes : undefined;
        return m?.history.some((h: Body) => h.state === 'COMPLETED') ? m : undefined;
      },
      120_000,
      'the migration COMPLETED',
    );
    const last = Math.max(...source.ticks(instance.id));
    expect(source.guestRunning(instance.id)).toBe(false);
    expect(completed.point_of_no_return_passed).toBe(true);
    const live = completed.history.find((h: Body) => h.state === 'LIVE_MIGRATING');
    expect(live.detail.downtime_ms).toBeGreaterThanOrEqual(0);
    expect(live.detail.downtime_ms).toBeLessThan(5000);
    const text = await run(['cloudsvc:migration:status', requested.uuid]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}\S+Z {2}LIVE_MIGRATING +downtime_ms=\d+/m);
    expect(text.stdout).toMatch(/^ {2}\S+Z {2}COMPLETED/m);
    expect(await hosts.placement(instance.id)).toEqual({
      hypervisor_id: target.hypervisor.id,
      status: 'running',
    });

    // The memory moved: the target never booted, and its first tick follows the source's last.
    const targetTicks = await ticksPast(target, instance.id, last + 1);
    expect(target.console(instance.id)).not.toContain('guest: booted');
    expect(targetTicks[0]).toBe(last + 1);

    expectNoToken(
      shown.map((r) => `${r.stdout}\n${r.stderr}`).join('\n'),
      await transferTokenOf(requested.workflow_id),
    );
  }, 240_000);

  it('moves a running guest cold by POST /admin/cloudsvc/instances/{instance}/migrations: it boots on the target and counts on from its disk', async () => {
    const { source, target, instance } = await hosts.pair();
    await expectLiveCapable(source, target);
    const preflight = await admin('POST', `/instances/${instance.id}/migrations/preflight`, {
      target_hypervisor_uuid: target.hypervisor.id,
      mode: 'COLD',
    });
    expect(preflight.status).toBe(200);
    expect(preflight.body.attributes).toMatchObject({
      ok: true,
      strategy: 'cold',
      blockers: [],
      strategies: { LIVE_REQUIRED: 'live', LIVE_IF_POSSIBLE: 'live', COLD: 'cold' },
    });
    expect(preflight.body.attributes.warnings.map((w: Body) => w.code)).toContain('COLD_MOVE_STOPS_INSTANCE');

    const request = await admin('POST', `/instances/${instance.id}/migrations`, {
      target_hypervisor_uuid: target.hypervisor.id,
      mode: 'COLD',
      reason: 'host maintenance',
    });
    expect(request.status, JSON.stringify(request.body)).toBe(202);
    const requested = request.body.attributes;
    expect(requested).toMatchObject({ strategy: 'cold', point_of_no_return: 'STARTING_TARGET' });
    expect(requested.requested_by).toMatch(/^admin:/);

    const completed: Body = await eventually(
      async () => {
        const { body } = await admin('GET', `/migrations/${requested.uuid}`);
        return body.attributes.history.some((h: Body) => h.state === 'COMPLETED')
          ? body.attributes
          : undefined;
      },
      120_000,
      'the migration COMPLETED',
    );
    const stoppedAt = stoppedCount(source.console(instance.id));
    expect(stoppedAt).toBeGreaterThanOrEqual(Math.max(...source.ticks(instance.id)));
    expect(source.guestRunning(instance.id)).toBe(false);
    expect(completed.history.find((h: Body) => h.state === 'VERIFYING_DISK').detail).toMatchObject({
      checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await hosts.placement(instance.id)).toEqual({
      hypervisor_id: target.hypervisor.id,
      status: 'running',
    });

    // A cold move of a running guest starts it on the target: one boot, which read the count back.
    const targetTicks = await ticksPast(target, instance.id, stoppedAt + 1);
    expect(target.console(instance.id).split('guest: booted')).toHaveLength(2);
    expect(targetTicks[0]).toBe(stoppedAt + 1);

    expectNoToken(JSON.stringify([request.body, completed]), await transferTokenOf(requested.workflow_id));
  }, 240_000);
});
