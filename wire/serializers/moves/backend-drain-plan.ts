import { STORAGE_BACKENDS } from '../../../domain/hypervisors.js';
import { MIGRATION_MODES, MIGRATION_STRATEGIES } from '../../../domain/migrations/states.js';
import { STORAGE_BLOCKER_CODES } from '../../../domain/storage-moves/preflight.js';
import type { BackendDrainPlan } from '../../../services/evacuations/backend-plan.js';
import { z } from '../../zod.js';

const ref = z.object({ uuid: z.string().uuid(), name: z.string() });

/** The dry run of draining a hypervisor's backend: what moves and how, what cannot and why. */
export const BackendDrainPlanEnvelope = z
  .object({
    object: z.literal('backend_drain_plan'),
    attributes: z.object({
      hypervisor: ref,
      from_backend: z.enum(STORAGE_BACKENDS),
      to_backend: z.enum(STORAGE_BACKENDS),
      mode: z.enum(MIGRATION_MODES),
      moves: z
        .array(
          z.object({
            instance: ref,
            strategy: z.enum(MIGRATION_STRATEGIES),
            disks: z.array(z.object({ disk: z.string(), size_mb: z.number().int() })),
          }),
        )
        .openapi({ description: 'In the order a drain starts them: the largest first.' }),
      unmovable: z.array(
        z.object({
          instance: ref,
          blockers: z.array(z.object({ code: z.enum(STORAGE_BLOCKER_CODES), detail: z.string() })),
        }),
      ),
    }),
  })
  .openapi('BackendDrainPlan');

export function serializeBackendDrainPlan(plan: BackendDrainPlan): z.infer<typeof BackendDrainPlanEnvelope> {
  const named = (r: { id: string; name: string }) => ({ uuid: r.id, name: r.name });
  return {
    object: 'backend_drain_plan',
    attributes: {
      hypervisor: named(plan.hypervisor),
      from_backend: plan.from,
      to_backend: plan.to,
      mode: plan.mode,
      moves: plan.moves.map((m) => ({
        instance: named(m.instance),
        strategy: m.strategy,
        disks: m.disks.map((d) => ({ disk: d.disk, size_mb: d.sizeMb })),
      })),
      unmovable: plan.unmovable.map((u) => ({ instance: named(u.instance), blockers: u.blockers })),
    },
  };
}

export type BackendDrainPlanBody = z.infer<typeof BackendDrainPlanEnvelope>;
