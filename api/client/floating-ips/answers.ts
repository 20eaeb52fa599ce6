import { INSTANCE_HELD } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

/** What attach and move name in their body: the instance the floating IP goes to. */
export const FloatingIpTargetBody = z
  .object({
    instance: z
      .string()
      .uuid()
      .openapi({ description: 'One of the caller’s instances, in the same location.' }),
  })
  .strict()
  .openapi('FloatingIpTargetRequest');

/** The answers of attach, detach and move: 200 when it already was so, 202 when an operation began. */
export const FLOATING_IP_UNCHANGED = 'It already was where asked; nothing changed.';
export const FLOATING_IP_ACCEPTED = 'Accepted; the floating IP `attaching` or `detaching`.';
export const FLOATING_IP_CONFLICTS =
  'Another location, on another instance (attach) or on none (move), still changing, or the instance’s ' +
  `status does not allow it (SVC-CONFLICT-409); the instance holds its most addresses (SVC-QUOTA-409); ${INSTANCE_HELD}`;
