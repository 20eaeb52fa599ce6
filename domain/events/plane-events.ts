import { z } from 'zod';
import { EVACUATION_STATES } from '../evacuations/states.js';
import { HYPERVISOR_STATUSES } from '../hypervisors.js';
import { MIGRATION_STATES } from '../migrations/states.js';
import { type EventDefinition, enteredEvent } from './definition.js';

// The events of the plane's own work (RESOURCE_AUDIENCE `plane`): migrations, evacuations and
// hypervisors. Only the plane's endpoints receive them.

const migrationState = z.object({ state: z.enum(MIGRATION_STATES) });
const evacuationState = z.object({ state: z.enum(EVACUATION_STATES) });
const hypervisorStatus = z.object({ status: z.enum(HYPERVISOR_STATUSES) });

export const PLANE_EVENTS = {
  'migration.requested': enteredEvent(
    'migration',
    'A migration of an instance was requested (by an administrator or an evacuation); it is REQUESTED.',
    z.object({}),
    { status: 'REQUESTED' },
  ),
  'migration.completed': enteredEvent(
    'migration',
    'A migration committed: the instance runs on its target. The source copy is cleaned up later.',
    migrationState,
    { status: 'COMPLETED', from: 'COMMITTING' },
  ),
  'migration.rolled_back': enteredEvent(
    'migration',
    'A migration was undone before its point of no return: the instance is on its source as before.',
    migrationState,
    { status: 'ROLLED_BACK', from: 'ROLLING_BACK' },
  ),
  'migration.recovery_required': enteredEvent(
    'migration',
    'A migration failed after its point of no return and waits for an operator’s decision; the source is never restarted blindly.',
    migrationState,
    { status: 'RECOVERY_REQUIRED', from: 'STARTING_TARGET' },
  ),
  'evacuation.started': enteredEvent(
    'evacuation',
    'An evacuation of a hypervisor (or of one of its storage backends, or a restore) began; it shows the instances it plans to move.',
    z.object({}),
    { status: 'running' },
  ),
  'evacuation.paused': enteredEvent(
    'evacuation',
    'An evacuation paused: an administrator asked, or a failed move under the `pause` policy waits for one.',
    evacuationState,
    { status: 'paused', from: 'running' },
  ),
  'evacuation.finished': enteredEvent(
    'evacuation',
    'An evacuation ended: `completed`, `cancelled`, or `failed` when its run could not be started.',
    evacuationState,
    { status: 'completed', from: 'running' },
  ),
  'hypervisor.unreachable': enteredEvent(
    'hypervisor',
    'A hypervisor’s heartbeats stopped for HYPERVISOR_UNREACHABLE_AFTER_MS.',
    hypervisorStatus,
    { status: 'unreachable', from: 'online', column: 'status' },
  ),
  'hypervisor.online': enteredEvent(
    'hypervisor',
    'A hypervisor’s agent enrolled, or its heartbeats came back.',
    hypervisorStatus,
    { status: 'online', from: 'unreachable', column: 'status' },
  ),
} as const satisfies Record<string, EventDefinition>;
