import { ApplicationFailure } from '@temporalio/activity';
import type { Database } from '../db/database.js';
import { releaseHeldInstance } from '../db/records/held-instances.js';
import { listMigrationsRetainingOn } from '../db/repositories/moves/migration-facts.js';
import {
  moveInstanceToTarget,
  releaseTargetReservation,
} from '../db/repositories/moves/migration-handover.js';
import {
  annotateMigrationState,
  IllegalMigrationTransition,
  recordMigrationState,
} from '../db/repositories/moves/migration-states.js';
import { recordMigrationInterruption } from '../db/repositories/moves/migrations.js';
import { renewMoveLease } from '../db/repositories/moves/move-leases.js';
import { recordTransferEndpoint, voidTransferTokens } from '../db/repositories/moves/transfer-tokens.js';
import type { PowerState } from '../domain/instances/statuses.js';
import type { MigrationState } from '../domain/migrations/states.js';
import { secretBox } from '../platform/secrets.js';

export interface MigrationStateChange {
  readonly migrationId: string;
  readonly state: MigrationState;
  readonly detail?: Record<string, unknown>;
  readonly failedStep?: string;
  readonly failure?: Record<string, unknown>;
  readonly recovery?: Record<string, unknown>;
  /** Adds `detail` to the state's history line instead of recording the state again. */
  readonly annotate?: boolean;
}

/**
 * The migration's bookkeeping. Each is idempotent: a retried activity leaves the database as one
 * run would (a state recorded twice adds a second history line with the same state, no more).
 */
export function createMigrationActivities(db: Database, secretsKey: string | undefined) {
  /** Ends the migration's hold on the instance: its operation settled, its lease released. */
  const settleInstance = (
    trx: Database,
    migrationId: string,
    operationId: string,
    outcome: 'succeeded' | 'failed' | 'cancelled',
    detail: Record<string, unknown>,
    reported?: PowerState,
  ) =>
    releaseHeldInstance(trx, {
      leaseId: migrationId,
      operationId,
      outcome,
      detail: { migration_id: migrationId, ...detail },
      reported,
    });

  return failingLoudly({
    async recordMigrationState(change: MigrationStateChange): Promise<void> {
      if (change.annotate)
        return annotateMigrationState(db, change.migrationId, change.state, change.detail ?? {});
      await recordMigrationState(db, change.migrationId, change.state, change.detail ?? {}, {
        ...(change.failedStep === undefined ? {} : { failed_step: change.failedStep }),
        ...(change.failure === undefined ? {} : { failure: change.failure }),
        ...(change.recovery === undefined ? {} : { recovery: change.recovery }),
        ...(change.state === 'CLEANED_UP' ? { finished: true } : {}),
      });
    },

    /** The committed migrations of the instance whose retained copy is still on the hypervisor. */
    async migrationsRetainingOn(on: { instanceId: string; hypervisorId: string }): Promise<string[]> {
      return listMigrationsRetainingOn(db, on.instanceId, on.hypervisorId);
    },

    async renewMigrationLease(request: { migrationId: string; ttlMs: number }): Promise<boolean> {
      return renewMoveLease(db, request.migrationId, request.ttlMs);
    },

    /** The sender's offer of the disk, sealed; the receiver learns it by redeeming its token. */
    async recordTransferEndpoint(offer: {
      migrationId: string;
      disk: string;
      endpoint: string;
    }): Promise<void> {
      await recordTransferEndpoint(
        db,
        offer.migrationId,
        offer.disk,
        secretBox(secretsKey).seal(offer.endpoint),
      );
    },

    /**
     * COMMITTING (DESIGN.md): one transaction makes the target authoritative: the instance on the
     * target, the reservations moved, the tokens void, the operation settled, the lease released,
     * the state COMPLETED with the source's retention deadline.
     */
    /** The interruption the guest had in the move, as its run measured it. */
    async recordMigrationInterruption(measure: {
      migrationId: string;
      interruptionMs: number;
    }): Promise<void> {
      await recordMigrationInterruption(
        db,
        measure.migrationId,
        Math.max(0, Math.round(measure.interruptionMs)),
      );
    },

    async commitMigration(commit: {
      migrationId: string;
      operationId: string;
      retainSourceMs: number;
      /** The target's guest as its hypervisor reported it just before: the instance's status. */
      targetPowerState?: PowerState;
    }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await moveInstanceToTarget(trx, commit.migrationId);
        await voidTransferTokens(trx, commit.migrationId);
        await settleInstance(
          trx,
          commit.migrationId,
          commit.operationId,
          'succeeded',
          {},
          commit.targetPowerState,
        );
        await recordMigrationState(
          trx,
          commit.migrationId,
          'COMPLETED',
          {},
          { retainSourceMs: commit.retainSourceMs },
        );
      });
    },

    /**
     * ROLLED_BACK: the source is authoritative again. The target's room is given back, the tokens
     * void, the operation settled (the instance back in the status it had), the lease released.
     */
    async finishRollback(end: {
      migrationId: string;
      operationId: string;
      cancelled: boolean;
      detail: Record<string, unknown>;
      /** The source's guest as its hypervisor reported it at the end: the instance's status. */
      sourcePowerState?: PowerState;
    }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await releaseTargetReservation(trx, end.migrationId);
        await voidTransferTokens(trx, end.migrationId);
        await settleInstance(
          trx,
          end.migrationId,
          end.operationId,
          end.cancelled ? 'cancelled' : 'failed',
          end.detail,
          end.sourcePowerState,
        );
        await recordMigrationState(trx, end.migrationId, 'ROLLED_BACK', end.detail, { finished: true });
      });
    },
  });
}

/**
 * A state write the machine does not allow is a bug, not a passing fault: the step fails at once,
 * non-retryable, with the transition in its message, instead of being retried forever.
 */
function failingLoudly<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, activity] of Object.entries(activities))
    wrapped[name] = async (...args: never[]) => {
      try {
        return await activity(...args);
      } catch (error) {
        if (error instanceof IllegalMigrationTransition)
          throw ApplicationFailure.nonRetryable(error.message, 'MIGRATION_ILLEGAL_TRANSITION');
        throw error;
      }
    };
  return wrapped as T;
}
