import type { QueryDefinition, UpdateDefinition } from '@temporalio/common';
import { defineQuery, defineUpdate, setHandler } from '@temporalio/workflow';
import type { Verdict } from '../../../domain/errors.js';
import type { RecoveryDecision, SharedMoveState } from '../../../domain/moves/states.js';
import { businessFailure } from '../failures.js';
import type { MoveRun, RecoveryRequest, UndoRequest } from './run.js';

// How the panel talks to a running move: validated Temporal Updates, so a refused request (past
// the point of no return, nothing to recover) is refused by the run that knows its own state, and
// changes nothing; an accepted one is in its history.

export type { RecoveryRequest, UndoRequest } from './run.js';

export interface MoveControls<S extends string> {
  readonly undo: UpdateDefinition<{ state: S }, [UndoRequest]>;
  readonly recover: UpdateDefinition<{ state: S }, [RecoveryRequest]>;
  readonly state: QueryDefinition<S>;
}

/** A kind's updates and query, under the names its running histories already carry. */
export const moveControls = <S extends string>(names: {
  undo: string;
  recover: string;
  state: string;
}): MoveControls<S> => ({
  undo: defineUpdate<{ state: S }, [UndoRequest]>(names.undo),
  recover: defineUpdate<{ state: S }, [RecoveryRequest]>(names.recover),
  state: defineQuery<S>(names.state),
});

/** The kind's rules (domain/moves/control.ts, with its point of no return), asked against the run's state. */
export interface MoveRules<S extends string> {
  mayUndo(state: S | SharedMoveState, reason: string): Verdict;
  mayRecover(
    move: { state: S | SharedMoveState; committed: boolean },
    decision: RecoveryDecision,
    reason: string,
  ): Verdict;
}

/**
 * The run's answers to the panel: its state, and an administrator's undo or recovery decision,
 * each validated against the run's own state (a refusal is a business failure with its catalogue
 * code, which the service passes on). An accepted undo stops the forward step at once.
 */
export function installMoveControls<S extends string>(
  run: MoveRun<S>,
  controls: MoveControls<S | SharedMoveState>,
  rules: MoveRules<S>,
): void {
  const refuseUnless = (verdict: Verdict) => {
    if (!verdict.ok) throw businessFailure(verdict.code, verdict.detail);
  };
  setHandler(controls.state, () => run.state);
  setHandler(
    controls.undo,
    (request) => {
      run.undo = request;
      run.forward.cancel();
      return { state: run.state };
    },
    { validator: (request) => refuseUnless(rules.mayUndo(run.state, request.reason)) },
  );
  setHandler(
    controls.recover,
    (request) => {
      run.recovery = request;
      return { state: run.state };
    },
    {
      validator: (request) =>
        refuseUnless(
          rules.mayRecover({ state: run.state, committed: run.committed }, request.decision, request.reason),
        ),
    },
  );
}
