import { type EvacuationPolicy, FAILURE_POLICIES } from '../../../domain/evacuations/states.js';
import { convergenceRequest } from '../../../wire/requests/convergence-fields.js';
import { moveMode, reason } from '../../../wire/requests/move-fields.js';
import { z } from '../../../wire/zod.js';

/** The policy fields of an evacuation request; left out, configuration gives them. */
export const EvacuationRequestBody = z
  .strictObject({
    mode: moveMode,
    max_parallel: z.number().int().min(1).max(64).optional().openapi({
      description: 'Migrations out of the node at once (default EVACUATION_MAX_PARALLEL).',
      example: 4,
    }),
    max_parallel_per_target: z
      .number()
      .int()
      .min(1)
      .max(64)
      .optional()
      .openapi({
        description:
          'Migrations into any one target at once, counting every migration into it (default ' +
          'EVACUATION_MAX_PARALLEL_PER_TARGET).',
        example: 2,
      }),
    on_failure: z
      .enum(FAILURE_POLICIES)
      .optional()
      .openapi({
        description:
          'A failed move: `skip` records it and goes on (default); `retry` tries the instance again while ' +
          'attempts remain; `pause` records it and pauses the evacuation.',
      }),
    max_attempts: z
      .number()
      .int()
      .min(1)
      .max(10)
      .optional()
      .openapi({
        description:
          'Tries per instance: a move that failed, or a start refused because the instance was busy, counts one ' +
          '(default EVACUATION_MAX_ATTEMPTS).',
      }),
    convergence: convergenceRequest.optional().openapi({
      description:
        'The convergence policy every migration of the drain takes: the figures given over the configured ' +
        'defaults, fixed when the evacuation starts (docs/migration.md "Convergence").',
    }),
    reason: reason.optional(),
  })
  .openapi('EvacuationRequest');

export const EvacuationPlanBody = z.strictObject({ mode: moveMode }).openapi('EvacuationPlanRequest');

export const ControlBody = z.strictObject({ reason: reason.optional() }).openapi('EvacuationControl');

/** The policy fields a request's body gives, and only those (a restore's change to its evacuation's policy). */
export const policyChangesOfBody = (
  body: Partial<z.infer<typeof EvacuationRequestBody>>,
): Partial<EvacuationPolicy> => ({
  ...(body.mode ? { mode: body.mode } : {}),
  ...(body.max_parallel ? { maxParallel: body.max_parallel } : {}),
  ...(body.max_parallel_per_target ? { maxParallelPerTarget: body.max_parallel_per_target } : {}),
  ...(body.on_failure ? { onFailure: body.on_failure } : {}),
  ...(body.max_attempts ? { maxAttempts: body.max_attempts } : {}),
});

/** The policy a request's body asks for; what it leaves out, configuration gives (services/evacuations/start.ts). */
export const policyOfBody = (
  body: Partial<z.infer<typeof EvacuationRequestBody>> & Pick<z.infer<typeof EvacuationRequestBody>, 'mode'>,
) => ({ ...policyChangesOfBody(body), mode: body.mode });
