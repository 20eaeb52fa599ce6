import { randomUUID } from 'node:crypto';
import { findImageOfInstance } from '../../db/repositories/catalogue/catalog.js';
import {
  type ParentRun,
  recordParentRun,
} from '../../db/repositories/instances/instance-operation-repairs.js';
import type { BeginResult } from '../../db/repositories/instances/instance-operations.js';
import { insertMigration } from '../../db/repositories/moves/migrations.js';
import { desiredNetworkOf } from '../../db/repositories/network/instance-addresses.js';
import { type Actor, actorName } from '../../domain/actors.js';
import type { Resources } from '../../domain/capacity.js';
import type { ApiError } from '../../domain/errors.js';
import { withinBudget } from '../../domain/migrations/bandwidth-budget.js';
import { type ConvergenceRequest, policyInForce } from '../../domain/migrations/convergence.js';
import type { PreflightReport } from '../../domain/migrations/preflight.js';
import type { MigrationMode } from '../../domain/migrations/states.js';
import { mintTransportKey } from '../../domain/migrations/transport.js';
import { secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';
import { type PlannedOperation, planOperation } from '../instances/operations.js';
import { holdInstanceForMove } from '../moves/record.js';
import { convergenceDefaults, moveTimings } from '../moves/settings.js';
import { readPreflight } from './preflight.js';
import { takeSourceSlot } from './source-limit.js';
import { disksToMove, holdTarget } from './target-holds.js';

export interface MigrationRequest {
  readonly instanceId: string;
  readonly targetId?: string | undefined;
  readonly mode: MigrationMode;
  readonly reason?: string | undefined;
  /** The request's convergence figures; the rest are the configured defaults'. */
  readonly convergence?: ConvergenceRequest | undefined;
  readonly correlationId: string | null;
}

/** What a move made for a plan change adds to its record (services/instances/resize-move.ts). */
export interface MoveForResize {
  /** The size held on the target from the move's start: the larger of the two, so the change fits there. */
  readonly holdOnTarget: Resources;
  /** The refusal when the target, under its lock, no longer has that room. */
  readonly noRoom: () => ApiError;
  /** The run that starts the migration's as its child, recorded with it (the reconciler starts it). */
  readonly parentRun: (recorded: {
    migrationId: string;
    plan: PlannedOperation<'migrateInstance'>;
  }) => ParentRun;
}

/** A migration recorded and not yet started: what its run is started with. */
export interface RecordedMigration {
  readonly migrationId: string;
  readonly plan: PlannedOperation<'migrateInstance'>;
  readonly begun: Extract<BeginResult, { begun: true }>;
}

/**
 * The database half of a request: the preflight's blockers, or the migration recorded (the hold
 * every move takes, services/moves/record.ts; its row, the target's holds) and its run's input planned, with nothing started. An
 * evacuation's run records its moves with it and starts each as its child (`migrationId` given, so
 * a retried step finds the migration the first attempt recorded).
 */
export async function recordMigration(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  actor: Actor,
  request: MigrationRequest & { readonly migrationId?: string; readonly forResize?: MoveForResize },
): Promise<RecordedMigration | { readonly blocked: PreflightReport['blockers'] }> {
  const { instance, source, report } = await readPreflight(deps.db, deps.config, request);
  if (!report.ok || !source || !report.target || !report.strategy) return { blocked: report.blockers };
  const target = report.target;
  const strategy = report.strategy;
  const image = await findImageOfInstance(deps.db, instance.id);
  const migrationId = request.migrationId ?? randomUUID();
  const disks = await disksToMove(deps.db, instance);
  const box = secretBox(deps.config.SECRETS_KEY);
  // Everything of the instance's network that moves with it (the workflow carries the same, read
  // again as it prepares the target; nothing can change it meanwhile).
  const network = await desiredNetworkOf(deps.db, instance.id);
  const { leaseTtlMs, retainMs } = moveTimings(deps.config);
  // The source's outbound budget, shared by its moves, caps each one's bandwidth; the cap in force
  // is what the migration records and QEMU is given.
  const convergence = withinBudget(policyInForce(convergenceDefaults(deps.config), request.convergence), {
    budgetMbps: source.outboundBandwidthMbps ?? null,
    maxOutbound: deps.config.MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR,
  });
  const networkPlan = {
    mode: 'same_ip',
    addresses: network.addresses.map((a) => a.address),
    floating_ips: network.addresses.filter((a) => a.floating).map((a) => a.address),
    private_nics: network.nics.map((nic) => ({
      network_uuid: nic.network_id,
      address: nic.address,
      mac: nic.mac,
    })),
    interruption_expected: true,
  };
  const plan = planOperation(deps, {
    instanceId: instance.id,
    hypervisorId: source.id,
    kind: 'migrate',
    workflowType: 'migrateInstance',
    input: (operation) => ({
      migrationId,
      operation,
      sourceHypervisorId: source.id,
      targetHypervisorId: target.id,
      strategy,
      instance: {
        hostname: instance.hostname,
        cpu_cores: instance.cpu_cores,
        memory_mb: instance.memory_mb,
        disk_mb: instance.disk_mb,
        ...(image ? { image: image.code } : {}),
        ipv4: instance.primary_ipv4,
        ipv6: instance.primary_ipv6,
        running: instance.status === 'running',
      },
      transferToken: box.seal(disks.root.token),
      transportSecret: box.seal(mintTransportKey()),
      volumes: disks.volumes.map((v) => ({
        id: v.volumeId,
        sizeMb: v.sizeMb,
        transferToken: box.seal(v.token),
      })),
      leaseTtlMs,
      retainSourceMs: retainMs,
      convergence,
    }),
    correlationId: request.correlationId,
  });

  const begun = await deps.db.transaction().execute(async (trx) => {
    const recorded = await holdInstanceForMove(trx, actor, plan, {
      id: migrationId,
      noun: 'migration',
      ttlMs: leaseTtlMs,
    });
    await takeSourceSlot(trx, deps.config, { source, targetId: target.id });
    await insertMigration(trx, {
      id: migrationId,
      instanceId: instance.id,
      sourceHypervisorId: source.id,
      targetHypervisorId: target.id,
      mode: request.mode,
      strategy,
      operationId: plan.operationId,
      workflowId: plan.workflowId,
      requestedBy: actorName(actor),
      reason: request.reason ?? null,
      warnings: report.warnings,
      networkPlan,
      convergence,
    });
    const forResize = request.forResize;
    await holdTarget(trx, {
      migrationId,
      instanceId: instance.id,
      targetId: target.id,
      instance: forResize?.holdOnTarget ?? {
        cpu_cores: instance.cpu_cores,
        memory_mb: instance.memory_mb,
        disk_mb: instance.disk_mb,
      },
      disks,
      tokenTtlMs: deps.config.TRANSFER_TOKEN_TTL_MS,
      ...(forResize && { noRoom: forResize.noRoom }),
    });
    if (forResize) await recordParentRun(trx, plan.operationId, forResize.parentRun({ migrationId, plan }));
    return recorded;
  });
  return { migrationId, plan, begun };
}
