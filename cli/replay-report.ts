import type { ReplayVerdict } from '../worker/replay.js';
import { counted } from './words.js';

type FailedReplay = Extract<ReplayVerdict, { ok: false }>;

const eventText = (event: NonNullable<FailedReplay['event']>) =>
  `event ${event.id} (${[event.type, event.activityType].filter(Boolean).join(' ')})`;

/** A failed replay in a sentence: whose run, where it stops fitting the code, and what the SDK said. */
export function describeFailure(verdict: FailedReplay): string {
  const what = `${verdict.workflowType} ${verdict.workflowId} run ${verdict.runId}`;
  const where = verdict.event ? ` at ${eventText(verdict.event)}` : '';
  return verdict.nondeterminism
    ? `nondeterminism: ${what} does not replay on the current code${where}: ${verdict.message}`
    : `${what} could not be replayed${where}: ${verdict.message}`;
}

/** A verdict as `--json` prints it. */
export function verdictJson(verdict: ReplayVerdict) {
  return {
    workflow_id: verdict.workflowId,
    run_id: verdict.runId,
    workflow_type: verdict.workflowType,
    ok: verdict.ok,
    ...(verdict.ok
      ? {}
      : {
          nondeterminism: verdict.nondeterminism,
          event: verdict.event
            ? {
                id: verdict.event.id,
                type: verdict.event.type,
                activity_type: verdict.event.activityType ?? null,
              }
            : null,
          message: verdict.message,
        }),
  };
}

const resultOf = (v: ReplayVerdict) => (v.ok ? 'ok' : v.nondeterminism ? 'NONDETERMINISM' : 'FAILED');

/** The verdicts as a table, one run a line, and the count of each result. */
export function verdictTable(verdicts: readonly ReplayVerdict[]): string[] {
  const rows = [
    ['RESULT', 'TYPE', 'WORKFLOW ID', 'RUN ID', 'WHERE'],
    ...verdicts.map((v) => [
      resultOf(v),
      v.workflowType,
      v.workflowId,
      v.runId,
      !v.ok && v.event ? eventText(v.event) : '',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  const count = (result: string) => verdicts.filter((v) => resultOf(v) === result).length;
  return [
    ...lines,
    `${counted(verdicts.length, 'run')} replayed: ${count('ok')} ok, ${count('NONDETERMINISM')} nondeterministic, ${count('FAILED')} failed`,
  ];
}
