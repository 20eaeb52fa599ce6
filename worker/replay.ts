import { DefaultLogger, type History, Runtime, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';

export interface RecordedHistory {
  readonly workflowId: string;
  readonly history: History;
}

/** A history event as an operator finds it in the Temporal UI. */
export interface HistoryEventRef {
  readonly id: number;
  /** `ActivityTaskScheduled`, `TimerStarted`, `WorkflowExecutionCompleted`, … */
  readonly type: string;
  readonly activityType?: string;
}

/** One history replayed: fine, nondeterministic (the code no longer fits it), or failing otherwise. */
export type ReplayVerdict = {
  readonly workflowType: string;
  readonly workflowId: string;
  readonly runId: string;
} & (
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly nondeterminism: boolean;
      /** What the SDK found, e.g. `[TMPRL1100] Nondeterminism error: Activity type of scheduled event … does not match …`. */
      readonly message: string;
      /** For a nondeterminism: the first recorded event the current code does not reproduce. */
      readonly event?: HistoryEventRef;
    }
);

type FailedReplay = Extract<ReplayVerdict, { ok: false }>;

type HistoryEvent = NonNullable<History['events']>[number];

/**
 * For a process that only replays (the CLI, the replay tests): a replay worker narrates its life,
 * and Core warns of the very nondeterminism the verdict reports, so only errors are logged.
 */
export function installReplayRuntime(): void {
  Runtime.install({
    logger: new DefaultLogger('ERROR'),
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
  });
}

/** The workflow type a history belongs to, from its first event. */
export function workflowTypeOf(history: History): string {
  const name = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
  if (!name) throw new Error('the history does not begin with a workflow execution start');
  return name;
}

function eventRef(event: HistoryEvent): HistoryEventRef {
  const attributes = Object.keys(event).find(
    (key) => key.endsWith('EventAttributes') && event[key as keyof HistoryEvent],
  );
  const type = attributes ? attributes.replace(/EventAttributes$/, '') : 'unknown';
  const activityType = event.activityTaskScheduledEventAttributes?.activityType?.name;
  return {
    id: Number(String(event.eventId)),
    type: type.charAt(0).toUpperCase() + type.slice(1),
    ...(activityType ? { activityType } : {}),
  };
}

// The SDK wraps Core's failure in a Rust debug dump; its first `message: "…"` is the readable part.
const CORE_MESSAGE = /message: "((?:[^"\\]|\\.)*)"/;
const readable = (message: string) => CORE_MESSAGE.exec(message)?.[1]?.replaceAll('\\"', '"') ?? message;

// Core names the event itself for some mismatches (`No command scheduled for event HistoryEvent(id: 11, …)`).
const NAMED_EVENT = /HistoryEvent\(id: (\d+)/;

const indicesWhere = (events: HistoryEvent[], test: (event: HistoryEvent) => unknown) =>
  events.flatMap((event, index) => (test(event) ? [index] : []));

/**
 * Where a nondeterministic history stops fitting the code. When Core does not name the event, the
 * history is replayed again cut at each workflow task start (where a running workflow's history
 * may also end): the first cut that fails holds the workflow task whose commands the code no
 * longer reproduces, and the first event those commands recorded is the one to look at.
 * Histories are short, and this runs only after a failure.
 */
async function divergence(bundle: WorkflowBundleOption, recorded: RecordedHistory, message: string) {
  const events = recorded.history.events ?? [];
  const named = NAMED_EVENT.exec(message)?.[1];
  const event = named ? events.find((e) => String(e.eventId) === named) : undefined;
  if (event) return eventRef(event);
  const taskStarts = indicesWhere(events, (e) => e.workflowTaskStartedEventAttributes);
  const cuts = taskStarts.map((end) => ({
    workflowId: `${recorded.workflowId}@${end}`,
    history: { events: events.slice(0, end + 1) },
  }));
  let diverging = taskStarts.at(-1);
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: bundle, replayName: 'cloudsvc-replay-locate' },
    cuts,
  )) {
    if (result.error) {
      const end = Number(result.workflowId.split('@').pop());
      diverging = taskStarts[taskStarts.indexOf(end) - 1];
      break;
    }
  }
  if (diverging === undefined) return undefined;
  const completed = events.findIndex((e, i) => i > diverging && e.workflowTaskCompletedEventAttributes);
  const firstCommand = completed === -1 ? undefined : events[completed + 1];
  return firstCommand ? eventRef(firstCommand) : undefined;
}

/**
 * Replays recorded histories against a workflow bundle, one replay worker for all of them. The
 * fixtures in CI and the operator's `workflow:replay` both come through here, so both judge a
 * history the same way.
 */
export async function replayHistories(
  bundle: WorkflowBundleOption,
  histories: readonly RecordedHistory[],
): Promise<ReplayVerdict[]> {
  const byId = new Map(histories.map((h) => [h.workflowId, h]));
  const failed: { verdict: FailedReplay; recorded: RecordedHistory }[] = [];
  const verdicts: ReplayVerdict[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: bundle, replayName: 'cloudsvc-replay' },
    histories,
  )) {
    const recorded = byId.get(result.workflowId)!;
    const identity = {
      workflowType: workflowTypeOf(recorded.history),
      workflowId: result.workflowId,
      runId: result.runId,
    };
    if (!result.error) {
      verdicts.push({ ...identity, ok: true });
      continue;
    }
    const nondeterminism = result.error instanceof DeterminismViolationError;
    const verdict = {
      ...identity,
      ok: false as const,
      nondeterminism,
      message: readable(result.error.message),
    };
    verdicts.push(verdict);
    if (nondeterminism) failed.push({ verdict, recorded });
  }
  // A replay worker at a time: the localisation runs once the first one has shut down.
  for (const { verdict, recorded } of failed) {
    const event = await divergence(bundle, recorded, verdict.message);
    if (event) verdicts[verdicts.indexOf(verdict)] = { ...verdict, event };
  }
  return verdicts;
}
