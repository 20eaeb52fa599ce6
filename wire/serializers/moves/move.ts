import { WARNING_CODES } from '../../../domain/migrations/preflight.js';
import {
  MOVE_MODES,
  MOVE_STRATEGIES,
  type MoveMode,
  type MoveStrategy,
} from '../../../domain/moves/states.js';
import type { Config } from '../../../platform/config.js';
import { REDACTED, redactText, SECRET_FIELD_NAMES } from '../../../platform/redaction.js';
import { z } from '../../zod.js';

/**
 * What every move shows administrators, whatever its kind (SPEC.md §4, §6 rule 2): its state and
 * history, its point of no return, the lease, a recovery decision, its failure and its Temporal
 * run, and never a secret, a transfer token, a sealed value, an agent task id or an endpoint. Each
 * kind's serializer (migration.ts, storage-move.ts) puts its own fields between these groups, in
 * the order its body has always had.
 */

export const warning = z
  .object({ code: z.enum(WARNING_CODES), detail: z.string() })
  .openapi('MigrationWarning', {
    description: 'What the move will cost; the codes are listed in docs/migration.md.',
  });

const detail = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'What the step found out or why it failed; never a secret or an agent task id.' });

const SECRET_KEY = new RegExp(`(?:${SECRET_FIELD_NAMES.join('|')}|taskid|taskids|endpoint|sealed)$`);
const SEALED_TEXT = /sealed:v\d+:[A-Za-z0-9._-]*/g;

/** A copy with every key naming a secret, a task or an endpoint left out, and secrets in text replaced. */
function publicValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value.replace(SEALED_TEXT, REDACTED));
  if (Array.isArray(value)) return value.map(publicValue);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, '')))
      .map(([key, child]) => [key, publicValue(child)]),
  );
}

/** A detail as an administrator may see it: no secret, task or endpoint. */
export const publicDetail = (value: Record<string, unknown>) => publicValue(value) as Record<string, unknown>;
const textOrNull = (value: unknown) => (typeof value === 'string' ? redactText(value) : null);
export const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export type TemporalLinks = Pick<Config, 'TEMPORAL_UI_URL' | 'TEMPORAL_NAMESPACE'>;

export function temporalUiUrl(links: TemporalLinks, workflowId: string): string | null {
  if (!links.TEMPORAL_UI_URL) return null;
  const base = links.TEMPORAL_UI_URL.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(links.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}`;
}

/** How a kind names itself and its point of no return in the fields' descriptions. */
export interface MoveWords {
  /** "migration", "storage move". */
  readonly noun: string;
  /** Where its point of no return lies, for `point_of_no_return`. */
  readonly pointOfNoReturn: string;
}

/**
 * The schema of the fields every move shows, for a kind with `states`, in four groups: who and
 * what (`identity`), how it goes (`course`), what happened (`outcome`) and its run (`run`).
 */
export function moveFields<S extends string>(states: readonly [S, ...S[]], words: MoveWords) {
  const state = z.enum(states);
  return {
    identity: { uuid: z.string().uuid(), instance_uuid: z.string().uuid() },
    course: {
      mode: z.enum(MOVE_MODES),
      strategy: z.enum(MOVE_STRATEGIES).openapi({ description: 'The strategy in effect.' }),
      state,
      point_of_no_return: z.enum(states).openapi({ description: words.pointOfNoReturn }),
      point_of_no_return_passed: z.boolean().openapi({
        description: `Whether the ${words.noun} has reached its point of no return: from then on cancel and rollback are refused, and a failure waits in RECOVERY_REQUIRED.`,
      }),
      requested_by: z.string().openapi({ example: 'admin:9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d' }),
      reason: z.string().nullable(),
      warnings: z.array(warning),
    },
    outcome: {
      history: z.array(z.object({ state, at: z.string(), detail })),
      failed_step: state.nullable(),
      failure: detail.nullable(),
      recovery: z
        .object({
          decision: z.string(),
          reason: z.string().nullable(),
          by: z.string().nullable(),
          failed_step: z.string().nullable(),
        })
        .nullable()
        .openapi({ description: 'The operator decision recorded in RECOVERY_REQUIRED, if any.' }),
      lease: z
        .object({ holder: z.string(), expires_at: z.string() })
        .nullable()
        .openapi({ description: `The instance’s move lease while this ${words.noun} holds it.` }),
    },
    run: {
      workflow_id: z.string(),
      temporal_ui_url: z
        .string()
        .nullable()
        .openapi({ description: 'The run in the Temporal Web UI; null without TEMPORAL_UI_URL.' }),
      created_at: z.string(),
      updated_at: z.string(),
      finished_at: z.string().nullable(),
    },
  };
}

/** What every move's record holds, as its repository reads it. */
export interface MoveRecord<S extends string> {
  readonly id: string;
  readonly instance_id: string;
  readonly mode: MoveMode;
  readonly strategy: MoveStrategy;
  readonly state: S;
  readonly requested_by: string;
  readonly reason: string | null;
  readonly warnings: readonly { code: (typeof WARNING_CODES)[number]; detail: string }[];
  readonly history: readonly { state: S; at: Date; detail: Record<string, unknown> }[];
  readonly failed_step: string | null;
  readonly failure: Record<string, unknown> | null;
  readonly recovery: Record<string, unknown> | null;
  readonly lease_holder: string | null;
  readonly lease_expires_at: Date | null;
  readonly workflow_id: string;
  readonly created_at: Date;
  readonly updated_at: Date;
  readonly finished_at: Date | null;
}

/** Where a kind's move turns: its point of no return, and whether the move has reached it. */
export interface MoveTurn<S extends string> {
  readonly pointOfNoReturn: S;
  readonly passed: boolean;
}

/** The fields every move shows, in the groups of `moveFields`. */
export function serializeMoveFields<S extends string>(
  record: MoveRecord<S>,
  turn: MoveTurn<S>,
  links: TemporalLinks,
) {
  const recovery = record.recovery;
  return {
    identity: { uuid: record.id, instance_uuid: record.instance_id },
    course: {
      mode: record.mode,
      strategy: record.strategy,
      state: record.state,
      point_of_no_return: turn.pointOfNoReturn,
      point_of_no_return_passed: turn.passed,
      requested_by: record.requested_by,
      reason: record.reason,
      warnings: record.warnings.map((w) => ({ code: w.code, detail: redactText(w.detail) })),
    },
    outcome: {
      history: record.history.map((h) => ({
        state: h.state,
        at: h.at.toISOString(),
        detail: publicDetail(h.detail),
      })),
      // A step of the kind's, as its run writes it (a state of its machine).
      failed_step: (record.failed_step as S | null) ?? null,
      failure: record.failure ? publicDetail(record.failure) : null,
      recovery: recovery
        ? {
            decision: String(recovery.decision),
            reason: textOrNull(recovery.reason),
            by: textOrNull(recovery.by),
            failed_step: textOrNull(recovery.failed_step),
          }
        : null,
      lease:
        record.lease_holder && record.lease_expires_at
          ? { holder: record.lease_holder, expires_at: record.lease_expires_at.toISOString() }
          : null,
    },
    run: {
      workflow_id: record.workflow_id,
      temporal_ui_url: temporalUiUrl(links, record.workflow_id),
      created_at: record.created_at.toISOString(),
      updated_at: record.updated_at.toISOString(),
      finished_at: isoOrNull(record.finished_at),
    },
  };
}

type MoveGroups = ReturnType<typeof serializeMoveFields<string>>;

/** Any move's body, as far as every kind shows it (what a view of moves of any kind reads). */
export interface MoveBody {
  readonly object: string;
  readonly attributes: MoveGroups['identity'] &
    MoveGroups['course'] &
    MoveGroups['outcome'] &
    MoveGroups['run'];
}
