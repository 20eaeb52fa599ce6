import { setTimeout as sleep } from 'node:timers/promises';
import { ACTIVE_EVACUATION_STATES } from '../domain/evacuations/states.js';
import type { ServiceDeps } from '../services/context.js';
import { showEvacuation } from '../services/evacuations/show.js';
import { type EvacuationBody, serializeShownEvacuation } from '../wire/serializers/moves/evacuation.js';
import { EXIT } from './command.js';
import { progressLine } from './evacuation-text.js';

const POLL_MS = 1000;

/**
 * Shows an evacuation's progress (a drain's or a restore's) each time it changes, until it ends;
 * Ctrl-C stops the watching only. Its last state.
 */
export async function watchEvacuation(
  deps: Pick<ServiceDeps, 'db'>,
  evacuationId: string,
  note: (line: string) => void,
): Promise<EvacuationBody> {
  let last = '';
  for (;;) {
    const body = serializeShownEvacuation(await showEvacuation(deps, evacuationId));
    const line = progressLine(body);
    if (line !== last) note(`  ${line}`);
    last = line;
    if (!ACTIVE_EVACUATION_STATES.includes(body.attributes.state)) return body;
    await sleep(POLL_MS);
  }
}

/** Success when it completed with every instance moved, or left where it is on purpose. */
export function exitOfEnded(body: EvacuationBody): number {
  const { state, progress } = body.attributes;
  return state === 'completed' && progress.moved + progress.cancelled === progress.total
    ? EXIT.ok
    : EXIT.failed;
}
