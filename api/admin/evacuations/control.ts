import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { EvacuationControl } from '../../../domain/evacuations/states.js';
import type { AppEnv } from '../../../http/context.js';
import { controlEvacuation } from '../../../services/evacuations/control.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  unavailableResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { EvacuationEnvelope, serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { adminActor } from '../../auth/principals.js';
import { ControlBody } from './fields.js';

/** Pause, resume and cancel: the same request to the evacuation's run, which decides and records. */
const CONTROLS: Record<EvacuationControl, { summary: string; does: string; from: string }> = {
  pause: {
    summary: 'Pause an evacuation',
    does: 'Starts no new move; the migrations under way finish. State `paused`',
    from: 'running',
  },
  resume: {
    summary: 'Resume an evacuation',
    does: 'Starts moves again where it stopped. State `running`',
    from: 'paused',
  },
  cancel: {
    summary: 'Cancel an evacuation',
    does:
      'Starts no new move, and asks each migration under way to roll back as an administrator’s cancel would: one ' +
      'before its point of no return rolls back (the instance stays where it was), one past it finishes. None is ' +
      'abandoned: the state is `cancelling` until every one has ended, then `cancelled`; the instances whose turn ' +
      'had not come are `cancelled`. The hypervisor stays in maintenance',
    from: 'running or paused',
  },
};

function routeFor(control: EvacuationControl) {
  const { summary, does, from } = CONTROLS[control];
  return createRoute({
    method: 'post',
    path: `/evacuations/{evacuation}/${control}`,
    tags: ['Evacuations'],
    summary,
    description: `${does}. Allowed when the evacuation is ${from}. The answer is the evacuation after the run recorded it.`,
    request: { params: uuidParam('evacuation'), body: optionalJsonBody(ControlBody) },
    responses: {
      202: jsonContent(EvacuationEnvelope, 'Accepted; the evacuation.'),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(`Not ${from} (EVACUATION_STATE_CONFLICT); already ended (EVACUATION_FINISHED).`),
      ...unavailableResponse('The workflow service is unavailable (SVC-SYS-503); nothing changed.'),
    },
  });
}

export function register(app: OpenAPIHono<AppEnv>): void {
  for (const control of ['pause', 'resume', 'cancel'] as const) {
    app.openapi(routeFor(control), async (c) => {
      const deps = c.get('deps');
      const evacuation = await controlEvacuation(deps, adminActor(c), {
        evacuationId: c.req.valid('param').evacuation,
        control,
        reason: c.req.valid('json')?.reason,
      });
      return c.json(serializeShownEvacuation(await showEvacuation(deps, evacuation.id)), 202);
    });
  }
}
