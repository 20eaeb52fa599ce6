import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasksOfWorkflow } from '../../db/repositories/agent-tasks.js';
import { findInstance } from '../../db/repositories/instances.js';
import { findMigration } from '../../db/repositories/migrations.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { probeHypervisor } from '../../services/hypervisors/probe.js';
import { deleteInstance, rebuildInstance, regeneratePassword } from '../../services/instances/lifecycle.js';
import { provisionInstance } from '../../services/instances/provision.js';
import { recoverMigrationWith } from '../../services/migrations/control.js';
import { requestMigration } from '../../services/migrations/request.js';
import { eventually } from '../agent-process.js';
import { type AgentEnvironment, startAgentEnvironment } from '../agents/environment.js';
import { seed } from '../harness.js';
import { writeHistoryFixture } from './histories.js';

/**
 * Records the replay fixtures from real runs: `npm run record:histories`. Each scenario drives the
 * operation the way a customer or administrator does and stores the history of the run it made,
 * unless its file exists: existing files are what running workflows look like, and stay.
 */
describe.runIf(process.env.RECORD_HISTORIES === '1')('recording workflow histories', () => {
  let env: AgentEnvironment;
  beforeAll(async () => {
    env = await startAgentEnvironment({ MIGRATION_SOURCE_RETENTION_MS: '200' });
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

    agent.armFault('instance.create', { mode: 'fail-permanently' });
    const doomed = await seed.instance(env.db, {
      userId: env.ownerId,
      locationId: hypervisor.location_id,
      hypervisorId: hypervisor.id,
      status: 'provisioning',
    });
    const begun = await provisionInstance(
      env.server.deps,
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
    const customer = { type: 'user' as const, userId: env.ownerId };
    const { image } = await seed.catalog(env.db);

    const rebuilt = await rebuildInstance(env.server.deps, customer, {
      instanceId: instance.id,
      image: image.code,
      sshKeyIds: undefined,
      correlationId: null,
    });
    expect(rebuilt.status).toBe('rebuilding');
    await record('rebuildInstance-completed', (await env.latestOperation(instance.id)).workflow_id);

    await regeneratePassword(env.server.deps, customer, { instanceId: instance.id, correlationId: null });
    await record('resetInstancePassword-completed', (await env.latestOperation(instance.id)).workflow_id);

    await deleteInstance(env.server.deps, customer, { instanceId: instance.id, correlationId: null });
    await record('deleteInstance-completed', (await env.latestOperation(instance.id)).workflow_id);
  });

  it('migrateInstance: completed (live), rolled back, and recovered by an operator', async () => {
    const admin = { type: 'admin' as const, userId: (await seed.user(env.db, { admin: true })).id };
    const location = await seed.location(env.db);
    const source = await env.hypervisorWithAgent({}, { locationId: location.id });
    const target = await env.hypervisorWithAgent({}, { locationId: location.id });
    const move = async (instanceId: string, targetId: string) =>
      requestMigration(env.server.deps, admin, { instanceId, targetId, mode: 'AUTO', correlationId: null });

    const instance = await env.provisionedInstance(source.hypervisor);
    const completed = await move(instance.id, target.hypervisor.id);
    await record('migrateInstance-completed', completed.workflowId);

    const second = await env.provisionedInstance(source.hypervisor);
    target.agent.armFault('disk.verify', { mode: 'fail-permanently' });
    const rolledBack = await move(second.id, target.hypervisor.id);
    await record('migrateInstance-rolled-back', rolledBack.workflowId);

    target.agent.armFault('migration.verify_target', { mode: 'fail-permanently' });
    const recovered = await move(second.id, target.hypervisor.id);
    await eventually(
      async () => (await findMigration(env.db, recovered.migrationId))?.state === 'RECOVERY_REQUIRED',
      20_000,
      'RECOVERY_REQUIRED',
    );
    await recoverMigrationWith(env.server.deps, admin, {
      migrationId: recovered.migrationId,
      decision: 'retry',
      reason: 'checked the target',
    });
    await record('migrateInstance-recovered', recovered.workflowId);
  });

  it('probeHypervisor: completed', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    await probeHypervisor(env.server.deps, hypervisor.id);
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
});
