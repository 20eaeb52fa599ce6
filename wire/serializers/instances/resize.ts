import type { PlanOfferRow } from '../../../db/repositories/instances/instance-sizes.js';
import type { Asker } from '../../../domain/actors.js';
import type { ResizeJudgement } from '../../../services/instances/resize-judgement.js';
import { z } from '../../zod.js';

const Size = z.object({
  cpu_cores: z.number().int(),
  memory_mb: z.number().int(),
  disk_mb: z.number().int(),
  plan: z.string().nullable().openapi({ description: 'The plan’s code; null: no plan.' }),
  monthly: z
    .object({
      price_cents: z
        .number()
        .int()
        .nullable()
        .openapi({ description: 'In the provider’s currency’s cents.' }),
      transfer_gb: z.number().int().nullable().openapi({ description: 'Traffic included a month, in GB.' }),
    })
    .nullable()
    .openapi({ description: 'The monthly figures the plan carries; null without a plan.' }),
});

export const ResizeEnvelope = z
  .object({
    object: z.literal('instance_resize'),
    attributes: z.object({
      instance_uuid: z.string().uuid(),
      from: Size,
      to: Size,
      unchanged: z
        .boolean()
        .openapi({ description: 'The instance has that size and plan already: nothing happens.' }),
      mode: z.enum(['hot', 'cold']).openapi({
        description:
          '`hot`: the running guest takes the change without a reboot (its disk grows under it); `cold`: it is ' +
          'stopped, resized and started again (a stopped one stays stopped).',
      }),
      reasons: z.array(z.string()).openapi({ description: 'Why the change is cold; empty when it is hot.' }),
      shrinks: z.array(z.enum(['cpu_cores', 'memory_mb'])).openapi({ description: 'What gets smaller.' }),
      placement: z.enum(['fits', 'move', 'none']).openapi({
        description:
          '`fits`: the instance’s hypervisor has the room; `move`: it lacks it and another hypervisor of the ' +
          'location has it (the change moves the instance first when `move_allowed`); `none`: no hypervisor has it.',
      }),
      shortfall: z
        .array(z.string())
        .openapi({ description: 'What the instance’s hypervisor lacks (administrators).' }),
      target: z
        .object({ uuid: z.string().uuid(), name: z.string() })
        .nullable()
        .openapi({ description: 'The best hypervisor to move to, for `move` (shown to administrators).' }),
      move_allowed: z.boolean().openapi({ description: 'Whether this change may move the instance first.' }),
      hot_ceiling: z.object({ cpu_cores: z.number().int(), memory_mb: z.number().int() }).nullable().openapi({
        description: 'The most the running guest may grow to, as its hypervisor reported; null: none.',
      }),
      operation_uuid: z.string().uuid().nullable().openapi({
        description: 'The `resize` operation begun (in the instance’s tasks); null for a dry run.',
      }),
    }),
  })
  .openapi('InstanceResize');

/** The monthly figures a plan carries; null without a plan. */
const monthlyOf = (plan: PlanOfferRow | null) =>
  plan && { price_cents: plan.monthly_price_cents, transfer_gb: plan.monthly_transfer_gb };

/** A plan change's verdict; hypervisor names and host figures only for an administrator. */
export function serializeResize(
  judgement: ResizeJudgement,
  who: Asker,
  operationId: string | null,
): z.infer<typeof ResizeEnvelope> {
  const admin = who.type === 'admin';
  const { room } = judgement;
  return {
    object: 'instance_resize',
    attributes: {
      instance_uuid: judgement.subject.id,
      from: {
        ...judgement.from,
        plan: judgement.fromPlan?.code ?? null,
        monthly: monthlyOf(judgement.fromPlan),
      },
      to: {
        ...judgement.to,
        plan: (judgement.toPlan ?? judgement.fromPlan)?.code ?? null,
        monthly: monthlyOf(judgement.toPlan ?? judgement.fromPlan),
      },
      unchanged: judgement.unchanged,
      mode: judgement.mode,
      reasons: judgement.reasons,
      shrinks: judgement.shrinks,
      placement: room.kind,
      shortfall: admin && room.kind !== 'fits' ? room.shortfall : [],
      target: admin && room.kind === 'move' ? { uuid: room.target.id, name: room.target.name } : null,
      move_allowed: judgement.moveAllowed,
      hot_ceiling: judgement.ceiling,
      operation_uuid: operationId,
    },
  };
}
