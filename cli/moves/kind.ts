import type { Actor } from '../../domain/actors.js';
import type { MoveMode, RecoveryDecision } from '../../domain/moves/states.js';
import type { ServiceDeps } from '../../services/context.js';
import type { MoveBody } from '../../wire/serializers/moves/move.js';
import type { CliContext } from '../command.js';
import type { AskArguments } from './ask.js';

/** What a move's preflight answers, as far as the commands read it: whether it would be accepted. */
export interface PreflightBody {
  readonly attributes: { readonly ok: boolean };
}

/** An operator's ask for a move of an instance: the instance, the mode, and what the kind adds. */
export interface MoveAskBase {
  readonly instanceId: string;
  readonly mode: MoveMode;
}

/**
 * What the `cloudsvc:<kind>:*` commands need of a kind of move (a migration, a storage move): how
 * it names itself, the options of its ask (a target, two backends), its preflight, request,
 * decision and reads through its services, and its texts. The commands (cli/moves/) are the same
 * for every kind.
 */
export interface MoveCliKind<Body extends MoveBody, Report extends PreflightBody, Ask extends MoveAskBase> {
  /** "migration", "storage move": in every message. */
  readonly noun: string;
  /** "migration", "storage-move": the commands' middle name (`cloudsvc:storage-move:status`). */
  readonly command: string;
  /** The kind's own options of a preflight and a start (`--target`; `--from` and `--to`). */
  readonly askOptions: Readonly<Record<string, { readonly type: 'string' }>>;
  /**
   * The ask from the instance's reference (a uuid or name), the mode and the kind's options: the
   * options checked first (a usage error before anything is read), then the references resolved.
   */
  ask(ctx: CliContext, given: AskArguments): Promise<Ask>;
  preflight(deps: ServiceDeps, ask: Ask): Promise<Report>;
  preflightText(report: Report): string[];
  /** The confirmation's question for a preflight that passed. */
  question(ask: Ask, report: Report): string;
  /** Requests the move the operator confirmed (`report` is the preflight they saw); its id. */
  request(
    deps: ServiceDeps,
    actor: Actor,
    ask: Ask & { reason: string | undefined; correlationId: string },
    report: Report,
  ): Promise<string>;
  show(deps: ServiceDeps, id: string): Promise<Body>;
  text(body: Body): string[];
  /** After COMPLETED: how long the old side is kept, in words; undefined without a deadline. */
  kept(body: Body): string | undefined;
  decide(
    deps: ServiceDeps,
    actor: Actor,
    request: { id: string; decision: RecoveryDecision; reason: string },
  ): Promise<Body>;
  /** What each decision does to this kind of move, after `failedStep` failed. */
  readonly decisions: Readonly<Record<RecoveryDecision, (failedStep: string) => string>>;
  /**
   * What the panel knows around a move waiting for a decision (its hypervisors, where the instance
   * is), as JSON fields and as lines, and the caution before deciding.
   */
  situation(deps: ServiceDeps, body: Body): Promise<{ facts: Record<string, unknown>; lines: string[] }>;
  readonly caution: string;
}
