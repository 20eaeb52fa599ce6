import { createHash, randomInt, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadGatewayConfig } from '../../console-gateway/config.js';
import { startGateway } from '../../console-gateway/server.js';
import { listTasksOfWorkflow } from '../../db/repositories/hypervisors/agent-task-reads.js';
import { findHypervisor, updateHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { markSuspended } from '../../db/repositories/instances/instance-suspension.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { findEvacuation } from '../../db/repositories/moves/evacuations.js';
import { findMigration } from '../../db/repositories/moves/migration-records.js';
import { findStorageMove } from '../../db/repositories/moves/storage-move-reads.js';
import { findFirewall, replaceFirewall } from '../../db/repositories/network/firewalls.js';
import { allocateAddress } from '../../db/repositories/network/ip-addresses.js';
import type { Asker } from '../../domain/actors.js';
import { CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import { backupScheduleId } from '../../domain/backups.js';
import { webhookStreamWorkflowId } from '../../domain/events/delivery.js';
import { scheduledActionScheduleId } from '../../domain/instances/scheduled-actions.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import {
  consoleStreamWorkflowId,
  imageCatchUpWorkflowId,
  imageDistributionWorkflowId,
  imageRemovalWorkflowId,
  instanceOperationWorkflowId,
  isoDeleteWorkflowId,
  isoFetchWorkflowId,
  providerRunWorkflowId,
  reverseDnsWorkflowId,
} from '../../domain/workflow-ids.js';
import { createLogger } from '../../platform/logger.js';
import { createBackup } from '../../services/backups/create-backup.js';
import { deleteBackup } from '../../services/backups/delete-backup.js';
import { restoreBackup } from '../../services/backups/restore-backup.js';
import { createBackupSchedule } from '../../services/backups/schedules/create.js';
import { deleteBackupSchedule } from '../../services/backups/schedules/delete.js';
import { createSnapshot, deleteSnapshot, restoreSnapshot } from '../../services/backups/snapshots.js';
import { verifyBackup } from '../../services/backups/verify-backup.js';
import { createImage } from '../../services/catalogue/images.js';
import { editLocation } from '../../services/catalogue/locations.js';
import { createConsoleSession } from '../../services/console/sessions.js';
import { startBackendDrain } from '../../services/evacuations/backend-drain.js';
import { controlEvacuation } from '../../services/evacuations/control.js';
import { startEvacuation } from '../../services/evacuations/start.js';
import { probeHypervisor } from '../../services/hypervisors/probe.js';
import { fetchLackedImages } from '../../services/images/catch-up.js';
import { addImageVersion, deleteImageVersion } from '../../services/images/versions.js';
import { deleteInstance, regeneratePassword } from '../../services/instances/lifecycle.js';
import { provisionInstance } from '../../services/instances/provision.js';
import { rebuildInstance } from '../../services/instances/rebuild.js';
import { changeRescueMode } from '../../services/instances/rescue.js';
import { requestResize } from '../../services/instances/resize.js';
import { createScheduledAction } from '../../services/instances/scheduled-actions.js';
import { deleteLibraryIso } from '../../services/media/iso-delete.js';
import { bootFromIso, changeIsoMount } from '../../services/media/iso-mounts.js';
import { addIso } from '../../services/media/isos.js';
import { recoverMigrationWith, rollBackMigration } from '../../services/migrations/control.js';
import { requestMigration } from '../../services/migrations/request.js';
import { attachAddress, promoteAddress } from '../../services/networks/addresses.js';
import { changeFirewall } from '../../services/networks/firewall.js';
import { allocateFloatingIp } from '../../services/networks/floating-ip-stock.js';
import { attachFloatingIp, moveFloatingIp } from '../../services/networks/floating-ips.js';
import { attachToPrivateNetwork } from '../../services/networks/private-network-nics.js';
import { createPrivateNetwork } from '../../services/networks/private-networks.js';
import { resyncReverseDns, setReverseDns } from '../../services/networks/reverse-dns.js';
import { createProvider, setCredential } from '../../services/providers/providers.js';
import { startProviderRun } from '../../services/providers/runs.js';
import { growRootDisk } from '../../services/storage/root-disk.js';
import { attachVolume } from '../../services/storage/volume-attachments.js';
import { deleteVolume } from '../../services/storage/volume-delete.js';
import { detachVolume } from '../../services/storage/volume-detach.js';
import { resizeVolume } from '../../services/storage/volume-resize.js';
import { createVolume } from '../../services/storage/volumes.js';
import { recoverStorageMoveWith } from '../../services/storage-moves/control.js';
import { requestStorageMove } from '../../services/storage-moves/request.js';
import { createEndpoint } from '../../services/webhooks/endpoints.js';
import { relayEvents } from '../../services/webhooks/relay.js';
import { eventually } from '../support/eventually.js';
import { startPowerDns } from '../support/powerdns.js';
import { startProviderServer } from '../support/provider-server.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { writeHistoryFixture } from './histories.js';

/**
 * Records the replay fixtures from real runs: `npm run record:histories`. Each scenario drives the
 * operation the way a customer or administrator does and stores the history of the run it made,
 * unless its file exists: existing files are what running workflows look like, and stay.
 */
describe.runIf(process.env.RECORD_HISTORIES === '1')('recording workflow histories', () => {
  let env: Stack;
  let recorder: Asker;
  beforeAll(async () => {
    env = await startStack({
      agents: true,
      config: {
        MIGRATION_SOURCE_RETENTION_MS: '200',
        PROVIDER_ALLOW_HTTP: 'true',
        EVACUATION_CHECK_EVERY_MS: '300',
        EVACUATION_MOVES_PER_RUN: '2',
        WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: '127.0.0.0/8',
        WEBHOOK_RETRY_INITIAL_MS: '200',
      },
    });
    recorder = { type: 'admin', userId: env.admin.id };
  });
  afterAll(() => env.close());

  async function record(name: string, workflowId: string) {
    const handle = env.temporal.workflow.getHandle(workflowId);
    await handle.result().catch(() => undefined);
    const written = writeHistoryFixture(name, await handle.fetchHistory());
    console.log(written ? `recorded ${name}` : `kept ${name} (delete the file to record it again)`);
  }

  it('provisionInstance: completed, and failed when the hypervisor cannot create it', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    await record('provisionInstance-completed', (await env.latestOperation(instance.id)).workflow_id);

    // Born with a firewall (the provider's defaults): the creation applies it, its revision recorded.
    const walled = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: hypervisor.location_id,
      hypervisorId: hypervisor.id,
      status: 'provisioning',
    });
    const ssh = {
      direction: 'inbound',
      protocol: 'tcp',
      port_from: 22,
      port_to: 22,
      cidr: '0.0.0.0/0',
    } as const;
    await env.db.transaction().execute((trx) =>
      replaceFirewall(trx, walled.id, {
        enabled: true,
        rules: [{ ...ssh, action: 'accept', description: null }],
      }),
    );
    const walledRun = await provisionInstance(
      env.deps,
      { type: 'system', name: 'recorder' },
      walled,
      'debian-12',
      null,
    );
    await record('provisionInstance-firewall', walledRun.workflowId);
    expect((await findFirewall(env.db, walled.id)).appliedRevision).toBe(1);

    agent.armFault('instance.create', { mode: 'fail-permanently' });
    const doomed = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: hypervisor.location_id,
      hypervisorId: hypervisor.id,
      status: 'provisioning',
    });
    const begun = await provisionInstance(
      env.deps,
      { type: 'system', name: 'recorder' },
      doomed,
      'debian-12',
      null,
    );
    await record('provisionInstance-failed', begun.workflowId);
    expect((await findInstance(env.db, doomed.id))?.status).toBe('error');
  });

  it('powerInstance: a stop completed, a restart failed, a hung stop cancelled by a kill', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);

    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await record('powerInstance-stop-completed', (await env.latestOperation(instance.id)).workflow_id);
    expect((await env.power(instance.id, 'start')).status).toBe(202);
    await env.operationResult(instance.id);

    agent.armFault('instance.power', { mode: 'fail-permanently' });
    expect((await env.power(instance.id, 'restart')).status).toBe(202);
    await record('powerInstance-restart-failed', (await env.latestOperation(instance.id)).workflow_id);
    expect((await env.latestOperation(instance.id)).state).toBe('failed');

    agent.armFault('instance.power', { mode: 'hang' });
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    const stop = await env.latestOperation(instance.id);
    await eventually(
      async () => (await listTasksOfWorkflow(env.db, stop.workflow_id))[0]?.status === 'running',
      10_000,
      'the stop to run',
    );
    expect((await env.power(instance.id, 'kill')).status).toBe(202);
    await record('powerInstance-stop-cancelled', stop.workflow_id);
    expect(await env.operationResult(instance.id)).toEqual({ power_state: 'stopped' });
    expect((await env.temporal.workflow.getHandle(stop.workflow_id).describe()).status.name).toBe(
      'CANCELLED',
    );
  });

  it('rebuildInstance, resetInstancePassword and deleteInstance: completed', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const { image } = await seed.catalog(env.db);

    const rebuilt = await rebuildInstance(env.deps, customer, {
      instanceId: instance.id,
      image: image.code,
      sshKeyIds: undefined,
      correlationId: null,
    });
    expect(rebuilt.status).toBe('rebuilding');
    await record('rebuildInstance-completed', (await env.latestOperation(instance.id)).workflow_id);

    await regeneratePassword(env.deps, customer, { instanceId: instance.id, correlationId: null });
    await record('resetInstancePassword-completed', (await env.latestOperation(instance.id)).workflow_id);

    await deleteInstance(env.deps, customer, { instanceId: instance.id, correlationId: null });
    await record('deleteInstance-completed', (await env.latestOperation(instance.id)).workflow_id);
  });

  /** Two hypervisors of a new location with their agents, and an administrator to move between them. */
  async function migrationPair() {
    const admin = { type: 'admin' as const, userId: (await seed.user(env.db, { admin: true })).id };
    const location = await seed.location(env.db);
    const source = await env.hypervisorWithAgent({}, { locationId: location.id });
    const target = await env.hypervisorWithAgent({}, { locationId: location.id });
    const move = (instanceId: string) =>
      requestMigration(env.deps, admin, {
        instanceId,
        targetId: target.hypervisor.id,
        mode: 'AUTO',
        correlationId: null,
      });
    return { admin, location, source, target, move };
  }

  it('migrateInstance: completed (live), rolled back, and recovered by an operator', async () => {
    const { admin, source, target, move } = await migrationPair();
    const instance = await env.provisionedInstance(source.hypervisor);
    const completed = await move(instance.id);
    await record('migrateInstance-completed', completed.workflowId);

    const second = await env.provisionedInstance(source.hypervisor);
    target.agent.armFault('disk.verify', { mode: 'fail-permanently' });
    const rolledBack = await move(second.id);
    await record('migrateInstance-rolled-back', rolledBack.workflowId);

    target.agent.armFault('migration.verify_target', { mode: 'fail-permanently' });
    const recovered = await move(second.id);
    await eventually(
      async () => (await findMigration(env.db, recovered.migrationId))?.state === 'RECOVERY_REQUIRED',
      20_000,
      'RECOVERY_REQUIRED',
    );
    await recoverMigrationWith(env.deps, admin, {
      migrationId: recovered.migrationId,
      decision: 'retry',
      reason: 'checked the target',
    });
    await record('migrateInstance-recovered', recovered.workflowId);
  });

  it('migrateInstance: a move that carries the instance’s network and firewall', async () => {
    const { source, move } = await migrationPair();
    const instance = await env.provisionedInstance(source.hypervisor);
    await record('migrateInstance-network-carried', (await move(instance.id)).workflowId);
  });

  it('migrateInstance: a move that carries the instance’s volume, and one whose source withdraws its offer', async () => {
    const { location, source, target, move } = await migrationPair();
    const instance = await env.provisionedInstance(source.hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const volume = await createVolume(env.deps, customer, {
      ownerId: env.client.id,
      name: `carried-${randomUUID()}`,
      location: location.code,
      backend: 'local',
      sizeMb: 2048,
      correlationId: null,
    });
    await attachVolume(env.deps, customer, {
      volumeId: volume.id,
      instanceId: instance.id,
      correlationId: null,
    });
    await env.operationResult(instance.id);
    await record('migrateInstance-volume-carried', (await move(instance.id)).workflowId);

    // A move that fails after the disks were offered: the source withdraws its offer.
    const second = await env.provisionedInstance(source.hypervisor);
    target.agent.armFault('disk.verify', { mode: 'fail-permanently' });
    await record('migrateInstance-offer-withdrawn', (await move(second.id)).workflowId);
  });

  it('migrateInstance: a busy guest’s move given up before its switch, one cancelled in LIVE_MIGRATING, one failed after its switch, one whose step follows its policy', async () => {
    const { admin, source, target } = await migrationPair();
    const live = (instanceId: string, convergence: Record<string, unknown> = {}) =>
      requestMigration(env.deps, admin, {
        instanceId,
        targetId: target.hypervisor.id,
        mode: 'LIVE_REQUIRED',
        convergence,
        correlationId: null,
      });
    const busy = await env.provisionedInstance(source.hypervisor);
    source.agent.driver.setDirtyRate(busy.id, 256);
    await record('migrateInstance-not-converging', (await live(busy.id)).workflowId);

    const cancelled = await live(busy.id, { completion_timeout_s_per_gib: 86_400 });
    await eventually(
      async () =>
        (await listTasksOfWorkflow(env.db, cancelled.workflowId)).some(
          (t) => t.type === 'migration.live' && t.status === 'running',
        ),
      20_000,
      'the live move to run',
    );
    await rollBackMigration(env.deps, admin, {
      migrationId: cancelled.migrationId,
      kind: 'cancel',
      reason: 'too busy today',
    });
    await record('migrateInstance-cancelled-live', cancelled.workflowId);

    const idle = await env.provisionedInstance(source.hypervisor);
    source.agent.armFault('migration.live', { mode: 'fail-after' });
    const switched = await live(idle.id);
    await eventually(
      async () => (await findMigration(env.db, switched.migrationId))?.state === 'RECOVERY_REQUIRED',
      20_000,
      'RECOVERY_REQUIRED',
    );
    await recoverMigrationWith(env.deps, admin, {
      migrationId: switched.migrationId,
      decision: 'retry',
      reason: 'the guest runs on the target',
    });
    await record('migrateInstance-failed-after-switch', switched.workflowId);

    // Its step's limit following the policy: 800 s per GiB of the guest's memory and disk, and an hour.
    const large = await env.provisionedInstance(source.hypervisor);
    await record('migrateInstance-live-step-follows-policy', (await live(large.id)).workflowId);
  });

  it('evacuateHypervisor: continued as new, completed (one blocked, one failed), and cancelled', async () => {
    const { admin, source, target } = await migrationPair();
    const guests = [];
    for (let i = 0; i < 4; i++) guests.push(await env.provisionedInstance(source.hypervisor));
    await env.db
      .updateTable('instances')
      .set({ host_requirements: JSON.stringify(['gpu_passthrough']) })
      .where('id', '=', guests[3]!.id)
      .execute();
    target.agent.armFault('disk.verify', { mode: 'fail-permanently' });
    const drain = (hypervisorId: string) =>
      startEvacuation(env.deps, admin, {
        hypervisorId,
        policy: { mode: 'AUTO', maxParallel: 1 },
        correlationId: null,
      });
    const { evacuationId } = await drain(source.hypervisor.id);
    const workflowId = (await findEvacuation(env.db, evacuationId))!.workflow_id;
    const firstRun = (await env.temporal.workflow.getHandle(workflowId).describe()).runId;
    await record('evacuateHypervisor-completed', workflowId);
    const first = env.temporal.workflow.getHandle(workflowId, firstRun);
    const written = writeHistoryFixture('evacuateHypervisor-continued', await first.fetchHistory());
    console.log(written ? 'recorded evacuateHypervisor-continued' : 'kept evacuateHypervisor-continued');

    // Paused, resumed, then cancelled while a move hangs: the move rolls back, the rest is left.
    const other = await migrationPair();
    for (let i = 0; i < 2; i++) await env.provisionedInstance(other.source.hypervisor);
    other.target.agent.armFault('disk.transfer', { mode: 'hang' });
    const cancelled = await drain(other.source.hypervisor.id);
    for (const control of ['pause', 'resume', 'cancel'] as const)
      await controlEvacuation(env.deps, admin, { evacuationId: cancelled.evacuationId, control });
    await record(
      'evacuateHypervisor-cancelled',
      (await findEvacuation(env.db, cancelled.evacuationId))!.workflow_id,
    );
  });

  it('evacuateHypervisor: a storage backend drained', async () => {
    const admin = { type: 'admin' as const, userId: env.admin.id };
    const { hypervisor } = await env.hypervisorWithAgent();
    await updateHypervisor(env.db, hypervisor.id, { storageBackends: ['local', 'nfs'] });
    for (let i = 0; i < 2; i++) await env.provisionedInstance(hypervisor);
    const { evacuationId } = await startBackendDrain(env.deps, admin, {
      hypervisorId: hypervisor.id,
      from: 'local',
      to: 'nfs',
      policy: { mode: 'AUTO', maxParallel: 1 },
      correlationId: null,
    });
    await record(
      'evacuateHypervisor-backend-drained',
      (await findEvacuation(env.db, evacuationId))!.workflow_id,
    );
  });

  it('moveInstanceStorage: completed (live), rolled back, and recovered by an operator', async () => {
    const admin = { type: 'admin' as const, userId: env.admin.id };
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    await updateHypervisor(env.db, hypervisor.id, { storageBackends: ['local', 'nfs'] });
    const instance = await env.provisionedInstance(hypervisor);
    const move = (from: 'local' | 'nfs', to: 'local' | 'nfs') =>
      requestStorageMove(env.deps, admin, {
        instanceId: instance.id,
        from,
        to,
        mode: 'AUTO',
        correlationId: null,
      });
    await record('moveInstanceStorage-completed', (await move('local', 'nfs')).workflow_id);
    agent.armFault('storage.verify', { mode: 'fail-permanently' });
    await record('moveInstanceStorage-rolled-back', (await move('nfs', 'local')).workflow_id);
    agent.armFault('storage.switch', { mode: 'fail-permanently' });
    const recovered = await move('nfs', 'local');
    await eventually(
      async () => (await findStorageMove(env.db, recovered.id))?.state === 'RECOVERY_REQUIRED',
      20_000,
      'RECOVERY_REQUIRED',
    );
    await recoverStorageMoveWith(env.deps, admin, {
      moveId: recovered.id,
      decision: 'retry',
      reason: 'fixed',
    });
    await record('moveInstanceStorage-recovered', recovered.workflow_id);
  });

  it('openConsoleStream: a stream opened to a gateway', async () => {
    const gateway = await startGateway(
      loadGatewayConfig({
        GATEWAY_PANEL_URL: env.url,
        GATEWAY_CREDENTIAL: await seed.gatewayCredential(env.db),
        GATEWAY_PORT: '0',
      }),
      createLogger('silent', { service: 'console-gateway' }),
    );
    try {
      const { hypervisor } = await env.hypervisorWithAgent();
      const instance = await env.provisionedInstance(hypervisor);
      const customer = { type: 'user' as const, userId: env.client.id };
      const { session, connectToken } = await createConsoleSession(
        { ...env.deps, config: { ...env.deps.config, CONSOLE_GATEWAY_URL: gateway.url } },
        customer,
        { instanceId: instance.id, kind: 'serial' },
      );
      const browser = new WebSocket(gateway.url);
      await once(browser, 'open');
      browser.send(JSON.stringify({ connect_token: connectToken }));
      await eventually(() => gateway.relays.get(session.id)?.agent, 20_000, 'the stream to arrive');
      await record('openConsoleStream-opened', consoleStreamWorkflowId(session.id));
      browser.close();
    } finally {
      await gateway.close();
    }
  });

  it('backups: taken, failed, verified, found corrupt, deleted, restored, restore failed', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const on = { instanceId: instance.id, correlationId: null };
    const latest = async () => (await env.latestOperation(instance.id)).workflow_id;

    const backup = await createBackup(env.deps, customer, { ...on, name: undefined });
    await record('backupInstance-completed', await latest());
    agent.armFault('backup.create', { mode: 'fail-permanently' });
    const failed = await createBackup(env.deps, customer, { ...on, name: undefined });
    await record('backupInstance-failed', await latest());

    await verifyBackup(env.deps, customer, { ...on, backupId: backup.id });
    await record('verifyBackup-completed', await latest());
    await restoreBackup(env.deps, customer, { ...on, backupId: backup.id });
    await record('restoreInstance-backup-completed', await latest());
    agent.armFault('disk.swap', { mode: 'fail-permanently' });
    await restoreBackup(env.deps, customer, { ...on, backupId: backup.id });
    await record('restoreInstance-failed', await latest());
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');

    agent.armFault('backup.verify', { mode: 'corrupt' });
    await verifyBackup(env.deps, customer, { ...on, backupId: backup.id });
    await record('verifyBackup-corrupt', await latest());
    await deleteBackup(env.deps, customer, { ...on, backupId: failed.id });
    await record('deleteBackup-completed', await latest());
  });

  it('snapshots: taken, restored, deleted', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const on = { instanceId: instance.id, correlationId: null };
    const latest = async () => (await env.latestOperation(instance.id)).workflow_id;

    const snapshot = await createSnapshot(env.deps, customer, { ...on, name: undefined });
    await record('snapshotInstance-completed', await latest());
    await restoreSnapshot(env.deps, customer, { ...on, snapshotId: snapshot.id });
    await record('restoreInstance-snapshot-completed', await latest());
    await deleteSnapshot(env.deps, customer, { ...on, snapshotId: snapshot.id });
    await record('deleteSnapshot-completed', await latest());
  });

  it('scheduledBackup: backed up with retention, and skipped', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const policy = await createBackupSchedule(env.deps, customer, {
      instanceId: instance.id,
      fields: {
        name: 'nightly',
        cron: '0 3 29 2 *',
        intervalMinutes: null,
        keepLast: 1,
        keepDays: null,
        paused: false,
      },
      correlationId: null,
    });
    const schedule = env.temporal.schedule.getHandle(backupScheduleId(instance.id, policy.id));
    const runs = async () => {
      const found: string[] = [];
      for await (const run of env.temporal.workflow.list({
        query: `WorkflowType = 'scheduledBackup' AND ${SEARCH_ATTRIBUTES.instance} = '${instance.id}'`,
      }))
        found.push(run.workflowId);
      return found.sort();
    };
    const nextRun = async (count: number) => {
      // A run's id is the schedule's and the second it started in: one trigger a second.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await schedule.trigger();
      return eventually(
        async () => {
          const found = await runs();
          return found.length === count ? found.at(-1) : undefined;
        },
        20_000,
        `scheduled run ${count}`,
      );
    };
    await env.temporal.workflow.getHandle((await nextRun(1))!).result();
    await record('scheduledBackup-completed', (await nextRun(2))!);

    agent.armFault('instance.power', { mode: 'hang' });
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    const stop = await env.latestOperation(instance.id);
    await eventually(
      async () => (await listTasksOfWorkflow(env.db, stop.workflow_id))[0]?.status === 'running',
      10_000,
      'the stop to run',
    );
    await record('scheduledBackup-skipped', (await nextRun(3))!);
    expect((await env.power(instance.id, 'kill')).status).toBe(202);
    await deleteBackupSchedule(env.deps, customer, {
      instanceId: instance.id,
      policyId: policy.id,
      correlationId: null,
    });
  });

  it('probeHypervisor: completed', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    await probeHypervisor(env.deps, hypervisor.id);
    const probe = await eventually(
      async () => {
        for await (const run of env.temporal.workflow.list({
          query: `WorkflowType = 'probeHypervisor' AND ${SEARCH_ATTRIBUTES.hypervisor} = '${hypervisor.id}'`,
        }))
          return run;
        return undefined;
      },
      10_000,
      'the probe run to be listed',
    );
    await record('probeHypervisor-completed', probe.workflowId);
  });

  it('checkProvider: a rotation promoted, and a test the provider refused', async () => {
    const provider = await startProviderServer();
    try {
      const created = await createProvider(env.deps, {
        name: `recorder-${randomUUID()}`,
        kind: 'storage',
        endpoint: provider.url,
      });
      const credential = randomUUID();
      provider.accepted.add(credential);
      const target = { providerId: created.id, correlationId: null };
      const rotation = await startProviderRun(env.deps, recorder, target, { kind: 'rotate', credential });
      await record('checkProvider-rotated', providerRunWorkflowId('rotate', created.id, rotation.id));
      provider.accepted.clear();
      const test = await startProviderRun(env.deps, recorder, target, { kind: 'test' });
      await record('checkProvider-unauthorized', providerRunWorkflowId('test', created.id, test.id));
    } finally {
      await provider.close();
    }
  });

  it('changeInstanceNetwork: an address attached, and a promotion the hypervisor refused', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    await seed.uniqueIpv4Pool(env.db, hypervisor.location_id);
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const attached = await attachAddress(env.deps, customer, {
      instanceId: instance.id,
      family: 4,
      correlationId: null,
    });
    await record('changeInstanceNetwork-attached', (await env.latestOperation(instance.id)).workflow_id);

    agent.armFault('network.apply', { mode: 'fail-permanently' });
    await promoteAddress(env.deps, customer, {
      instanceId: instance.id,
      addressId: attached.id,
      correlationId: null,
    });
    await record('changeInstanceNetwork-reverted', (await env.latestOperation(instance.id)).workflow_id);
    expect((await env.latestOperation(instance.id)).state).toBe('failed');
  });

  it('resizeRootDisk: grown, and a grow the hypervisor refused', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const { plan } = await seed.catalog(env.db);
    await env.db.updateTable('plans').set({ disk_mb: 65_536 }).where('id', '=', plan.id).execute();
    await env.db.updateTable('instances').set({ plan_id: plan.id }).where('id', '=', instance.id).execute();
    const customer = { type: 'user' as const, userId: env.client.id };
    const grownTo = instance.disk_mb + 4096;
    await growRootDisk(env.deps, customer, { instanceId: instance.id, sizeMb: grownTo, correlationId: null });
    await record('resizeRootDisk-grown', (await env.latestOperation(instance.id)).workflow_id);

    agent.armFault('disk.resize', { mode: 'fail-permanently' });
    await growRootDisk(env.deps, customer, {
      instanceId: instance.id,
      sizeMb: grownTo + 4096,
      correlationId: null,
    });
    await record('resizeRootDisk-refused', (await env.latestOperation(instance.id)).workflow_id);
    expect((await env.latestOperation(instance.id)).state).toBe('failed');
  });

  it('resizeInstance: hot, cold, and one the hypervisor refused; provisionInstance with room to grow', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    await record('provisionInstance-ceiling', (await env.latestOperation(instance.id)).workflow_id);
    const change = (size: { cpu_cores?: number; disk_mb?: number }) =>
      requestResize(env.deps, recorder, {
        instanceId: instance.id,
        target: size,
        allowMove: false,
        correlationId: null,
      });
    await change({ cpu_cores: instance.cpu_cores + 1, disk_mb: instance.disk_mb + 1024 });
    await record('resizeInstance-hot', (await env.latestOperation(instance.id)).workflow_id);
    await change({ cpu_cores: instance.cpu_cores });
    await record('resizeInstance-cold', (await env.latestOperation(instance.id)).workflow_id);
    agent.armFault('instance.resize', { mode: 'fail-permanently' });
    await change({ cpu_cores: instance.cpu_cores + 1 });
    await record('resizeInstance-rolled-back', (await env.latestOperation(instance.id)).workflow_id);
    expect((await env.latestOperation(instance.id)).state).toBe('failed');
  });

  it('resizeInstance: moved first, its host lacking the room', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    await env.hypervisorWithAgent({}, { locationId: hypervisor.location_id });
    const instance = await env.provisionedInstance(hypervisor);
    await env.db.updateTable('hypervisors').set({ cpu_cores: 1 }).where('id', '=', hypervisor.id).execute();
    const { operationId } = await requestResize(env.deps, recorder, {
      instanceId: instance.id,
      target: { cpu_cores: instance.cpu_cores + 1 },
      allowMove: true,
      correlationId: null,
    });
    await record('resizeInstance-moved', instanceOperationWorkflowId('resize', instance.id, operationId!));
    expect((await env.latestOperation(instance.id)).state).toBe('succeeded');
  });

  it('attachVolume, resizeVolume and detachVolume: each done, and each the hypervisor refused; attached again', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const location = await env.db
      .selectFrom('locations')
      .select('code')
      .where('id', '=', hypervisor.location_id)
      .executeTakeFirstOrThrow();
    const customer = { type: 'user' as const, userId: env.client.id };
    const volume = await createVolume(env.deps, customer, {
      ownerId: env.client.id,
      name: `recorded-${randomUUID()}`,
      location: location.code,
      backend: 'local',
      sizeMb: 2048,
      correlationId: null,
    });
    const onVolume = { volumeId: volume.id, correlationId: null };
    const recordedDeletes: string[] = [];
    const latest = async () => (await env.latestOperation(instance.id)).workflow_id;
    agent.armFault('volume.attach', { mode: 'fail-permanently' });
    await attachVolume(env.deps, customer, { ...onVolume, instanceId: instance.id });
    await record('attachVolume-refused', await latest());
    await attachVolume(env.deps, customer, { ...onVolume, instanceId: instance.id });
    await record('attachVolume-attached', await latest());
    await resizeVolume(env.deps, customer, { ...onVolume, sizeMb: 3072 });
    await record('resizeVolume-grown', await latest());
    agent.armFault('volume.resize', { mode: 'fail-permanently' });
    await resizeVolume(env.deps, customer, { ...onVolume, sizeMb: 4096 });
    await record('resizeVolume-refused', await latest());
    agent.armFault('volume.detach', { mode: 'fail-permanently' });
    await detachVolume(env.deps, customer, onVolume);
    await record('detachVolume-refused', await latest());
    await detachVolume(env.deps, customer, onVolume);
    await record('detachVolume-detached', await latest());
    // Its disk is there at its size: attached without making it.
    await attachVolume(env.deps, customer, { ...onVolume, instanceId: instance.id });
    await record('attachVolume-again', await latest());
    // Detached, deleted: its hypervisor refuses once, then removes it.
    await detachVolume(env.deps, customer, onVolume);
    await env.operationResult(instance.id);
    agent.armFault('volume.delete', { mode: 'fail-permanently' });
    for (const name of ['deleteVolume-refused', 'deleteVolume-removed']) {
      await deleteVolume(env.deps, customer, onVolume);
      const run = await eventually(
        async () => {
          for await (const w of env.temporal.workflow.list({
            query: `WorkflowType = 'deleteVolume' AND WorkflowId STARTS_WITH 'volume-delete-${volume.id}'`,
          }))
            if (!recordedDeletes.includes(w.workflowId)) return w.workflowId;
          return undefined;
        },
        15_000,
        'the delete run',
      );
      recordedDeletes.push(run);
      await record(name, run);
    }
    expect((await env.latestOperation(instance.id)).state).toBe('succeeded');
  });

  it('fetchIso, changeIsoMount, bootIso and deleteIso: fetched and refused; mounted, refused and ejected; booted; removed and refused', async () => {
    const server = createServer((req, res) =>
      req.url === '/a.iso' ? res.end('an iso') : res.writeHead(404).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { hypervisor, agent } = await env.hypervisorWithAgent();
      const instance = await env.provisionedInstance(hypervisor);
      const customer = { type: 'user' as const, userId: env.client.id };
      let fetchedIsoId: string | undefined;
      let failedIsoId: string | undefined;
      const deps = {
        ...env.deps,
        config: { ...env.deps.config, ISO_ALLOW_HTTP: true, ISO_ALLOWED_NETWORKS: ['127.0.0.0/8'] },
      };
      for (const [name, path] of [
        ['fetchIso-fetched', '/a.iso'],
        ['fetchIso-refused', '/missing.iso'],
      ] as const) {
        const iso = await addIso(deps, customer, {
          instanceId: instance.id,
          name,
          url: `${base}${path}`,
          correlationId: null,
        });
        await record(name, isoFetchWorkflowId(iso.id));
        if (path === '/a.iso') fetchedIsoId = iso.id;
        else failedIsoId = iso.id;
      }
      const latest = async () => (await env.latestOperation(instance.id)).workflow_id;
      const onInstance = { instanceId: instance.id, correlationId: null };
      agent.armFault('iso.mount', { mode: 'fail-permanently' });
      await changeIsoMount(env.deps, customer, { ...onInstance, isoId: fetchedIsoId! });
      await record('changeIsoMount-refused', await latest());
      await changeIsoMount(env.deps, customer, { ...onInstance, isoId: fetchedIsoId! });
      await record('changeIsoMount-mounted', await latest());
      await changeIsoMount(env.deps, customer, { ...onInstance, isoId: null });
      await record('changeIsoMount-ejected', await latest());
      await bootFromIso(env.deps, customer, { ...onInstance, isoId: fetchedIsoId! });
      await record('bootIso-booted', await latest());
      expect((await env.latestOperation(instance.id)).state).toBe('succeeded');
      // The failed ISO deleted: its hypervisor refuses once, then removes it.
      const admin = { type: 'admin' as const, userId: env.admin.id };
      agent.armFault('iso.delete', { mode: 'fail-permanently' });
      const recordedDeletes: string[] = [];
      for (const name of ['deleteIso-refused', 'deleteIso-removed']) {
        await deleteLibraryIso(env.deps, admin, { isoId: failedIsoId!, correlationId: null });
        const prefix = isoDeleteWorkflowId(failedIsoId!, '');
        const run = await eventually(
          async () => {
            for await (const w of env.temporal.workflow.list({
              query: `WorkflowType = 'deleteIso' AND WorkflowId STARTS_WITH '${prefix}'`,
            }))
              if (!recordedDeletes.includes(w.workflowId)) return w.workflowId;
            return undefined;
          },
          15_000,
          'the delete run',
        );
        recordedDeletes.push(run);
        await record(name, run);
      }
    } finally {
      server.close();
    }
  });

  it('distributeImage: fetched by a hypervisor, and refused for a wrong checksum', async () => {
    const disk = Buffer.from('an image disk');
    const server = createServer((req, res) =>
      req.url === '/disk.img' ? res.end(disk) : res.writeHead(404).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { hypervisor } = await env.hypervisorWithAgent();
      const location = await env.db
        .selectFrom('locations')
        .select('code')
        .where('id', '=', hypervisor.location_id)
        .executeTakeFirstOrThrow();
      const image = await createImage(env.deps, {
        code: `image-${randomUUID().slice(0, 8)}`,
        name: 'Imported',
        os_family: 'other',
        virtualization: 'kvm',
        min_disk_mb: 64,
        is_public: true,
      });
      const deps = {
        ...env.deps,
        config: { ...env.deps.config, ISO_ALLOW_HTTP: true, ISO_ALLOWED_NETWORKS: ['127.0.0.0/8'] },
      };
      for (const [name, checksum] of [
        ['distributeImage-fetched', createHash('sha256').update(disk).digest('hex')],
        ['distributeImage-refused', 'ab'.repeat(32)],
      ] as const) {
        const versionId = await addImageVersion(
          deps,
          image.id,
          {
            url: `${base}/disk.img`,
            checksum_algorithm: 'sha256',
            checksum,
            format: 'raw',
            locations: [location.code],
          },
          null,
        );
        await record(name, imageDistributionWorkflowId(versionId));
      }
    } finally {
      server.close();
    }
  });

  it('fetchImageCopy: fetched by a hypervisor back online, and refused for a wrong checksum', async () => {
    const disk = Buffer.from('an image disk');
    const server = createServer((req, res) =>
      req.url === '/disk.img' ? res.end(disk) : res.writeHead(404).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const location = await seed.location(env.db);
      const { hypervisor } = await env.hypervisorWithAgent({}, { locationId: location.id });
      const image = await createImage(env.deps, {
        code: `image-${randomUUID().slice(0, 8)}`,
        name: 'Imported',
        os_family: 'other',
        virtualization: 'kvm',
        min_disk_mb: 64,
        is_public: true,
      });
      const deps = {
        ...env.deps,
        config: { ...env.deps.config, ISO_ALLOW_HTTP: true, ISO_ALLOWED_NETWORKS: ['127.0.0.0/8'] },
      };
      // Away while the versions are added (after its agent's first heartbeat, the next one far
      // off): their distributions leave its copies pending.
      await eventually(
        async () => (await findHypervisor(env.db, hypervisor.id))?.free_cpu_cores != null,
        30_000,
        'the first heartbeat',
      );
      const away = (status: 'online' | 'unreachable') =>
        env.db.updateTable('hypervisors').set({ status }).where('id', '=', hypervisor.id).execute();
      await away('unreachable');
      const versions: [string, string][] = [];
      for (const [name, checksum] of [
        ['fetchImageCopy-fetched', createHash('sha256').update(disk).digest('hex')],
        ['fetchImageCopy-refused', 'ab'.repeat(32)],
      ] as const) {
        const versionId = await addImageVersion(
          deps,
          image.id,
          {
            url: `${base}/disk.img`,
            checksum_algorithm: 'sha256',
            checksum,
            format: 'raw',
            locations: [location.code],
          },
          null,
        );
        await env.temporal.workflow.getHandle(imageDistributionWorkflowId(versionId)).result();
        versions.push([name, versionId]);
      }
      await away('online');
      await fetchLackedImages(deps, hypervisor.id);
      for (const [name, versionId] of versions)
        await record(name, imageCatchUpWorkflowId(versionId, hypervisor.id));
    } finally {
      server.close();
    }
  });

  it('removeImageCopy: removed, and blocked by a guest made from it', async () => {
    const disk = Buffer.from('an image disk to remove');
    const server = createServer((req, res) =>
      req.url === '/disk.img' ? res.end(disk) : res.writeHead(404).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const location = await seed.location(env.db);
      const { hypervisor, agent } = await env.hypervisorWithAgent({}, { locationId: location.id });
      const image = await createImage(env.deps, {
        code: `image-${randomUUID().slice(0, 8)}`,
        name: 'Imported',
        os_family: 'other',
        virtualization: 'kvm',
        min_disk_mb: 64,
        is_public: true,
      });
      const deps = {
        ...env.deps,
        config: { ...env.deps.config, ISO_ALLOW_HTTP: true, ISO_ALLOWED_NETWORKS: ['127.0.0.0/8'] },
      };
      const versions: string[] = [];
      for (let i = 0; i < 2; i++) {
        const versionId = await addImageVersion(
          deps,
          image.id,
          {
            url: `${base}/disk.img`,
            checksum_algorithm: 'sha256',
            checksum: createHash('sha256').update(disk).digest('hex'),
            format: 'raw',
            locations: [location.code],
          },
          null,
        );
        await env.temporal.workflow.getHandle(imageDistributionWorkflowId(versionId)).result();
        versions.push(versionId);
      }
      const [removed, blocked] = versions as [string, string];
      // A guest the panel no longer counts, made from the second version.
      await agent.driver.execute(
        'instance.create',
        {
          instance_id: randomUUID(),
          hostname: 'left.example.test',
          timezone: 'UTC',
          root_password: 'not-used-by-this-guest',
          ssh_keys: [],
          cpu_cores: 1,
          memory_mb: 256,
          disk_mb: 1024,
          image: blocked,
          boot_order: ['disk'],
          ipv4: null,
          ipv6: null,
          start: false,
        },
        {
          signal: new AbortController().signal,
          progress: () => undefined,
          redeemTransfer: () => Promise.reject(new Error('no transfer here')),
        },
      );
      for (const versionId of versions) await deleteImageVersion(deps, versionId, null);
      await record('removeImageCopy-removed', imageRemovalWorkflowId(removed, hypervisor.id));
      await record('removeImageCopy-blocked', imageRemovalWorkflowId(blocked, hypervisor.id));
    } finally {
      server.close();
    }
  });

  it('changeRescueMode: entered, left, and an entry the hypervisor refused', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const latest = async () => (await env.latestOperation(instance.id)).workflow_id;
    const rescue = (enter: boolean) =>
      changeRescueMode(env.deps, customer, { instanceId: instance.id, enter, correlationId: null });
    agent.armFault('rescue.enter', { mode: 'fail-permanently' });
    await rescue(true);
    await record('changeRescueMode-refused', await latest());
    await rescue(true);
    await record('changeRescueMode-entered', await latest());
    await rescue(false);
    await record('changeRescueMode-left', await latest());
    expect((await env.latestOperation(instance.id)).state).toBe('succeeded');
  });

  it('scheduledPowerAction: ran, and skipped', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const action = await createScheduledAction(env.deps, customer, {
      instanceId: instance.id,
      fields: { action: 'stop', cron: '0 5 29 2 *', runAt: null },
      correlationId: null,
    });
    const handle = env.temporal.schedule.getHandle(scheduledActionScheduleId(instance.id, action.id));
    for (const name of ['scheduledPowerAction-ran', 'scheduledPowerAction-skipped']) {
      const runsBefore = (await handle.describe()).info.recentActions.length;
      await handle.trigger();
      const run = await eventually(
        async () => (await handle.describe()).info.recentActions[runsBefore]?.action.workflow.workflowId,
        15_000,
        'the triggered run',
      );
      await record(name, run);
    }
  });

  it('changeInstanceFirewall: rules applied, and a change the hypervisor refused', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const customer = { type: 'user' as const, userId: env.client.id };
    const ssh = {
      direction: 'inbound',
      protocol: 'tcp',
      port: '22',
      cidr: '0.0.0.0/0',
      action: 'accept',
    } as const;
    await changeFirewall(env.deps, customer, {
      instanceId: instance.id,
      change: { enabled: true, rules: [ssh] },
      correlationId: null,
    });
    await record('changeInstanceFirewall-applied', (await env.latestOperation(instance.id)).workflow_id);

    agent.armFault('firewall.apply', { mode: 'fail-permanently' });
    await changeFirewall(env.deps, customer, {
      instanceId: instance.id,
      change: { rules: [] },
      correlationId: null,
    });
    await record('changeInstanceFirewall-reverted', (await env.latestOperation(instance.id)).workflow_id);
    expect((await env.latestOperation(instance.id)).state).toBe('failed');
  });

  it('changeInstanceNetwork: a floating IP moved between two hypervisors', async () => {
    const first = await env.hypervisorWithAgent();
    const second = await env.hypervisorWithAgent({}, { locationId: first.hypervisor.location_id });
    await seed.uniqueIpv4Pool(env.db, first.hypervisor.location_id);
    const from = await env.provisionedInstance(first.hypervisor);
    const to = await env.provisionedInstance(second.hypervisor);
    const location = await env.db
      .selectFrom('locations')
      .select('code')
      .where('id', '=', first.hypervisor.location_id)
      .executeTakeFirstOrThrow();
    const customer = { type: 'user' as const, userId: env.client.id };
    const ip = await allocateFloatingIp(env.deps, {
      userId: env.client.id,
      location: location.code,
      family: 4,
    });
    await attachFloatingIp(env.deps, customer, {
      addressId: ip.id,
      instanceId: from.id,
      correlationId: null,
    });
    await env.operationResult(from.id);
    await moveFloatingIp(env.deps, customer, { addressId: ip.id, instanceId: to.id, correlationId: null });
    await record('changeInstanceNetwork-floating-moved', (await env.latestOperation(to.id)).workflow_id);
    expect((await env.latestOperation(to.id)).state).toBe('succeeded');
  });

  it('changeInstanceNetwork: an instance joining a private network', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    const instance = await env.provisionedInstance(hypervisor);
    const location = await env.db
      .selectFrom('locations')
      .select('code')
      .where('id', '=', hypervisor.location_id)
      .executeTakeFirstOrThrow();
    const customer = { type: 'user' as const, userId: env.client.id };
    const network = await createPrivateNetwork(env.deps, customer, {
      ownerId: env.client.id,
      name: `recorded-${randomUUID()}`,
      location: location.code,
      cidr: `10.${randomInt(0, 256)}.${randomInt(0, 256)}.0/24`,
      correlationId: null,
    });
    await attachToPrivateNetwork(env.deps, customer, {
      networkId: network.id,
      instanceId: instance.id,
      address: null,
      correlationId: null,
    });
    await record(
      'changeInstanceNetwork-private-joined',
      (await env.latestOperation(instance.id)).workflow_id,
    );
    expect((await env.latestOperation(instance.id)).state).toBe('succeeded');
  });

  it('publishReverseDns: a resync pruned and published, and records failed without a credential', async () => {
    const pdns = await startPowerDns();
    try {
      const location = await seed.location(env.db);
      const pool = await seed.uniqueIpv4Pool(env.db, location.id);
      const zone = `${pool.cidr.split('.').slice(0, 3).reverse().join('.')}.in-addr.arpa.`;
      await pdns.createZone(zone);
      const provider = await createProvider(env.deps, {
        name: `recorder-dns-${randomUUID()}`,
        kind: 'dns',
        endpoint: pdns.endpoint,
        dns_zones: [zone],
      });
      const instance = await seed.instance(env.db, { userId: env.client.id, locationId: location.id });
      const address = await allocateAddress(env.db, {
        locationId: location.id,
        family: 4,
        instanceId: instance.id,
        userId: env.client.id,
        role: 'additional',
      });
      const customer = { type: 'user' as const, userId: env.client.id };
      const ask = { instanceId: instance.id, addressId: address!.id, rdns: 'recorded.example.com' };
      await editLocation(env.deps, location.id, { dns_provider: provider.id });

      // No credential yet: the run settles the record failed and ends.
      await setReverseDns(env.deps, customer, ask);
      await record('publishReverseDns-no-credential', reverseDnsWorkflowId(location.id));

      await setCredential(env.deps, provider.id, pdns.apiKey);
      await resyncReverseDns(env.deps, { locationId: location.id, correlationId: null });
      await record('publishReverseDns-resynced', reverseDnsWorkflowId(location.id));
      expect(await pdns.resolvePtr(address!.address)).toEqual(['recorded.example.com']);
    } finally {
      await pdns.close();
    }
  });

  it('deliverWebhooks: delivered after a refusal, and given up when the window closed', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const customer = { type: 'user' as const, userId: env.client.id };
      const { endpoint, secret } = await createEndpoint(env.deps, customer, {
        url: receiver.url(),
        description: '',
        eventTypes: ['instance.suspended'],
        enabled: true,
        apiVersion: CURRENT_API_VERSION,
        correlationId: null,
      });
      receiver.trust(secret);
      const relayed = async (instanceId: string, deps = env.deps) => {
        await markSuspended(env.db, instanceId);
        const workflowId = webhookStreamWorkflowId(endpoint.id, instanceId);
        await eventually(
          async () =>
            (await relayEvents(deps)) && (await env.temporal.workflow.getHandle(workflowId).describe()),
          20_000,
          'the stream',
        );
        return workflowId;
      };
      receiver.answerNext(503);
      const retried = await seed.instance(env.db, { userId: env.client.id, locationId: env.locationId });
      await record('deliverWebhooks-retried', await relayed(retried.id));
      receiver.answerAll(503);
      const givenUp = await seed.instance(env.db, { userId: env.client.id, locationId: env.locationId });
      const shortWindow = { ...env.deps, config: { ...env.config, WEBHOOK_RETRY_WINDOW_MS: 1500 } };
      await record('deliverWebhooks-given-up', await relayed(givenUp.id, shortWindow));
    } finally {
      await receiver.close();
    }
    // Each stream's run waits a minute for more before it ends.
  }, 200_000);
});
