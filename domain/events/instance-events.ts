import { z } from 'zod';
import { INSTANCE_STATUSES } from '../instances/statuses.js';
import { type EventDefinition, enteredEvent } from './definition.js';

// The events of an instance, its operations and the webhook endpoints that receive them.

const previousStatus = z.object({ status: z.enum(INSTANCE_STATUSES) });
const previousSuspension = z.object({ suspended: z.boolean() });

/** An instance entering a steady status (`status`), in the example from `from`. */
const statusEvent = (
  summary: string,
  status: (typeof INSTANCE_STATUSES)[number],
  from: (typeof INSTANCE_STATUSES)[number],
): EventDefinition => enteredEvent('instance', summary, previousStatus, { status, from, column: 'status' });

export const INSTANCE_EVENTS = {
  'instance.created': {
    resource: 'instance',
    version: 1,
    summary: 'An instance was ordered; it is provisioning.',
    previous: z.object({}),
    example: { status: 'provisioning', previous: {} },
  },
  'instance.running': statusEvent(
    'The instance is running (provisioned, started, restarted or restored).',
    'running',
    'starting',
  ),
  'instance.stopped': statusEvent('The instance is stopped.', 'stopped', 'stopping'),
  'instance.suspended': {
    resource: 'instance',
    version: 1,
    summary: 'An administrator suspended the instance: its customer begins no operation on it.',
    previous: previousSuspension,
    example: { status: 'running', previous: { suspended: false } },
  },
  'instance.unsuspended': {
    resource: 'instance',
    version: 1,
    summary: 'The suspension was lifted.',
    previous: previousSuspension,
    example: { status: 'running', previous: { suspended: true } },
  },
  'instance.resized': {
    resource: 'instance',
    version: 1,
    summary:
      'The instance’s vCPUs, memory or disk changed (a plan change, a disk grow, a hot resize); ' +
      '`previous_attributes` holds the old value of each that changed.',
    previous: z.object({
      cpu_cores: z.number().int().optional(),
      memory_mb: z.number().int().optional(),
      disk_mb: z.number().int().optional(),
    }),
    example: { status: 'running', previous: { cpu_cores: 1, memory_mb: 1024 } },
  },
  'instance.deleted': statusEvent('The instance was deleted from its hypervisor.', 'deleted', 'deleting'),
  'instance.failed': statusEvent(
    'The instance is in `error`: an operation or its hypervisor left it broken.',
    'error',
    'provisioning',
  ),
  'operation.failed': {
    resource: 'operation',
    version: 1,
    summary: 'An operation on an instance failed or was abandoned; the task says why.',
    previous: z.object({ state: z.literal('running') }),
    example: { status: 'failed', previous: { state: 'running' } },
  },
  'webhook_endpoint.disabled': {
    resource: 'webhook_endpoint',
    version: 1,
    summary:
      'The plane disabled a webhook endpoint that answered no delivery with a 2xx for a whole retry window; ' +
      'enable it again once its receiver is back (its owner’s other endpoints, and the plane’s, are told).',
    previous: z.object({ enabled: z.literal(true) }),
    example: { status: 'disabled', previous: { enabled: true } },
  },
} as const satisfies Record<string, EventDefinition>;
