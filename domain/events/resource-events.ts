import { z } from 'zod';
import { CONSOLE_SESSION_STATES } from '../console/sessions.js';
import { type EventDefinition, enteredEvent } from './definition.js';

// The events of what a customer keeps beside an instance: backups, snapshots, volumes, consoles.

const fromCreating = z.object({ state: z.literal('creating') });

export const RESOURCE_EVENTS = {
  'backup.available': enteredEvent(
    'backup',
    'A backup was written: its size and checksum are recorded, and it can be restored.',
    fromCreating,
    { status: 'available', from: 'creating' },
  ),
  'backup.failed': enteredEvent(
    'backup',
    'A backup could not be written; `error` says why. It holds no space.',
    fromCreating,
    { status: 'failed', from: 'creating' },
  ),
  'snapshot.available': enteredEvent('snapshot', 'A snapshot was taken and can be restored.', fromCreating, {
    status: 'available',
    from: 'creating',
  }),
  'volume.created': enteredEvent('volume', 'A volume was made; it is on no instance.', z.object({}), {
    status: 'available',
  }),
  'volume.attached': enteredEvent(
    'volume',
    'The volume is on its instance (`instance`).',
    z.object({ state: z.literal('attaching') }),
    { status: 'attached', from: 'attaching' },
  ),
  'volume.detached': enteredEvent(
    'volume',
    'The volume left its instance: detached, or its instance was deleted. It is on no instance.',
    z.object({ state: z.enum(['attached', 'detaching']) }),
    { status: 'available', from: 'detaching' },
  ),
  'volume.deleted': enteredEvent(
    'volume',
    'Its hypervisor removed the volume’s disk: the volume is gone. It is shown as it was last.',
    z.object({}),
    { status: 'deleting' },
  ),
  'console.session_ended': enteredEvent(
    'console_session',
    'A console session ended; `end_reason` says why (the customer left, it was revoked or expired, …).',
    z.object({ state: z.enum(CONSOLE_SESSION_STATES).exclude(['ended']) }),
    { status: 'ended', from: 'connected' },
  ),
} as const satisfies Record<string, EventDefinition>;
