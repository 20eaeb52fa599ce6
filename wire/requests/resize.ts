import { CATALOGUE_CODE, CATALOGUE_CODE_MESSAGE, PLAN_BOUNDS } from '../../domain/catalog.js';
import { z } from '../zod.js';

/** A plan change's request: the customer's and the administrator's share the rules below. */

const planCode = z
  .string()
  .regex(CATALOGUE_CODE, { message: CATALOGUE_CODE_MESSAGE })
  .openapi({ example: 'standard-2', description: 'The plan’s code.' });

const allowMove = z.boolean().openapi({
  description:
    'When the instance’s hypervisor lacks the room: move it to the best hypervisor of its location first, ' +
    'then change it (administrators; customers where RESIZE_CUSTOMER_MOVES is on). Otherwise refused with ' +
    '`RESIZE_NEEDS_MOVE`.',
});

export const ClientResizeBody = z
  .strictObject({ plan: planCode, allow_move: allowMove.default(false) })
  .openapi('ClientResizeRequest');

export const ClientResizeQuery = z.object({
  plan: planCode.optional().openapi({
    param: { name: 'plan', in: 'query' },
    description: 'The plan to judge a change to; left out: the instance as it stands (`unchanged`).',
  }),
  allow_move: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .openapi({ param: { name: 'allow_move', in: 'query' }, description: 'As the request’s `allow_move`.' }),
});

const size = (bounds: { min: number; max: number }) => z.number().int().min(bounds.min).max(bounds.max);

export const AdminResizeBody = z
  .strictObject({
    plan: planCode.optional().openapi({ description: 'A plan of the instance’s location, public or not.' }),
    cpu_cores: size(PLAN_BOUNDS.cpu_cores).optional(),
    memory_mb: size(PLAN_BOUNDS.memory_mb).optional(),
    disk_mb: size(PLAN_BOUNDS.disk_mb).optional(),
    allow_move: allowMove.default(false),
    dry_run: z
      .boolean()
      .default(false)
      .openapi({ description: 'Only the verdict (200): nothing is held, begun or changed.' }),
  })
  .refine(
    (b) =>
      (b.plan === undefined) !==
      (b.cpu_cores === undefined && b.memory_mb === undefined && b.disk_mb === undefined),
    {
      message: 'Give either `plan` or any of `cpu_cores`, `memory_mb`, `disk_mb`.',
      path: ['plan'],
    },
  )
  .openapi('AdminResizeRequest');

export const RESIZE_RULES =
  'The verdict first: whether the instance’s hypervisor has the room (or which hypervisor to move to), whether ' +
  'the running guest takes it hot (vCPUs and memory grown within the room it was booted with, in 128 MB ' +
  'blocks) or cold (stopped, resized, started again), what shrinks, and the monthly figures of the plans. ' +
  'Accepted, the `resize` operation holds the larger of the two sizes on the hypervisor (and against the ' +
  'owner’s quotas) from the request on; the hypervisor applies it, the root disk grows last, and the size it ' +
  'reports becomes the instance’s and its reservation’s. On any failure the guest gets its old size back, ' +
  'the room is given back, and the task says why. A disk never shrinks (RESIZE_DISK_SHRINK). The same size ' +
  'and plan: nothing begins (200).';
