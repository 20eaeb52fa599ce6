import { setHandler } from '@temporalio/workflow';
import { mayRecover, mayRollBack } from '../../domain/migrations/control.js';
import type { MigrationStrategy } from '../../domain/migrations/states.js';
import { businessFailure } from '../lib/failures.js';
import { migrationState, recoverMigration, rollbackMigration } from './definitions.js';
import type { MigrationRun } from './run.js';

/**
 * The run's answers to the panel: its state, and an administrator's cancel, rollback or recovery
 * decision, each validated by the domain rule against the run's own state (a refusal is a
 * business failure with its catalogue code, which the service passes on).
 */
export function installHandlers(run: MigrationRun, strategy: MigrationStrategy): void {
  setHandler(migrationState, () => run.state);
  setHandler(
    rollbackMigration,
    (request) => {
      run.rollbackRequest = request;
      run.forward.cancel();
      return { state: run.state };
    },
    {
      validator: (request) => {
        const verdict = mayRollBack({ state: run.state, strategy }, request.reason);
        if (!verdict.ok) throw businessFailure(verdict.code, verdict.detail);
      },
    },
  );
  setHandler(
    recoverMigration,
    (request) => {
      run.recovery = request;
      return { state: run.state };
    },
    {
      validator: (request) => {
        const verdict = mayRecover(
          { state: run.state, committed: run.committed },
          request.decision,
          request.reason,
        );
        if (!verdict.ok) throw businessFailure(verdict.code, verdict.detail);
      },
    },
  );
}
