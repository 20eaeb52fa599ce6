import { MIGRATION_MODES, MIGRATION_STRATEGIES } from '../../../domain/migrations/states.js';
import type { EvacuationPlanReport } from '../../../services/evacuations/plan.js';
import { z } from '../../zod.js';
import { blocker } from './migration.js';
import { warning } from './move.js';

const ref = z.object({ uuid: z.string().uuid(), name: z.string() });

/** The dry run of an evacuation: where each instance would go and how, and what cannot move and why. */
export const EvacuationPlanEnvelope = z
  .object({
    object: z.literal('evacuation_plan'),
    attributes: z.object({
      hypervisor: ref,
      mode: z.enum(MIGRATION_MODES),
      instances: z.number().int().openapi({ description: 'Instances on the hypervisor.' }),
      moves: z
        .array(
          z.object({
            instance: ref,
            target: ref,
            strategy: z.enum(MIGRATION_STRATEGIES),
            warnings: z.array(warning),
          }),
        )
        .openapi({ description: 'In the order an evacuation starts them: the largest first.' }),
      unmovable: z
        .array(z.object({ instance: ref, blockers: z.array(blocker) }))
        .openapi({ description: 'Every instance that cannot move now, with every reason.' }),
      targets: z
        .array(ref.extend({ instances: z.number().int(), memory_mb: z.number().int(), disk_mb: z.number() }))
        .openapi({ description: 'What each target would take.' }),
    }),
  })
  .openapi('EvacuationPlan');

export function serializeEvacuationPlan(plan: EvacuationPlanReport): z.infer<typeof EvacuationPlanEnvelope> {
  const named = (r: { id: string; name: string }) => ({ uuid: r.id, name: r.name });
  return {
    object: 'evacuation_plan',
    attributes: {
      hypervisor: named(plan.hypervisor),
      mode: plan.mode,
      instances: plan.instances,
      moves: plan.moves.map((m) => ({
        instance: named(m.instance),
        target: named(m.target),
        strategy: m.strategy,
        warnings: m.warnings,
      })),
      unmovable: plan.unmovable.map((u) => ({ instance: named(u.instance), blockers: u.blockers })),
      targets: plan.targets.map((t) => ({
        ...named(t),
        instances: t.instances,
        memory_mb: t.memory_mb,
        disk_mb: t.disk_mb,
      })),
    },
  };
}

export type EvacuationPlanBody = z.infer<typeof EvacuationPlanEnvelope>;
