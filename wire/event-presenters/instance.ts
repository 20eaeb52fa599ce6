import { OperationSnapshot } from '../../domain/events/catalogue.js';
import { GUEST_DRIFTS } from '../../domain/instances/guest-inventory.js';
import { INSTANCE_STATUSES } from '../../domain/instances/statuses.js';
import { USER_DATA_KINDS } from '../../domain/instances/user-data.js';
import { InstanceEnvelope, serializeInstance } from '../serializers/instances/instance.js';
import { serializeTask, TaskEnvelope } from '../serializers/instances/instance-history.js';
import { z } from '../zod.js';
import { at, atOrNull, type EventPresenter, EXAMPLE_AT, EXAMPLE_IDS } from './presenter.js';

/** The instance columns as its triggers record them (no password column). */
const InstanceSnapshot = z.object({
  id: z.string(),
  user_id: z.string(),
  hypervisor_id: z.string().nullable(),
  name: z.string(),
  hostname: z.string(),
  status: z.enum(INSTANCE_STATUSES),
  cpu_cores: z.number(),
  memory_mb: z.number(),
  disk_mb: z.number(),
  primary_ipv4: z.string().nullable(),
  primary_ipv6: z.string().nullable(),
  virtualization: z.string(),
  boot_order: z.array(z.string()),
  timezone: z.string(),
  guest_drift: z.enum(GUEST_DRIFTS).nullable(),
  guest_drift_since: atOrNull,
  // Absent from events recorded before instances had user-data.
  user_data_kind: z.enum(USER_DATA_KINDS).nullable().default(null),
  user_data_bytes: z.number().nullable().default(null),
  user_data_sha256: z.string().nullable().default(null),
  created_at: at,
  updated_at: at,
});

export const instancePresenter: EventPresenter<typeof InstanceEnvelope> = {
  schema: InstanceEnvelope,
  present: (snapshot) => serializeInstance(InstanceSnapshot.parse(snapshot)),
  example: (status) => ({
    id: EXAMPLE_IDS.instance,
    user_id: EXAMPLE_IDS.user,
    hypervisor_id: EXAMPLE_IDS.hypervisor,
    name: 'web-1',
    hostname: 'web-1.example.com',
    status,
    cpu_cores: 2,
    memory_mb: 2048,
    disk_mb: 40960,
    primary_ipv4: '203.0.113.10',
    primary_ipv6: null,
    virtualization: 'kvm',
    boot_order: ['disk', 'cdrom'],
    timezone: 'UTC',
    guest_drift: null,
    guest_drift_since: null,
    created_at: EXAMPLE_AT,
    updated_at: EXAMPLE_AT,
  }),
};

const OperationRow = OperationSnapshot.extend({ created_at: at, finished_at: atOrNull });

/** An operation as the task presenter reads it: never its workflow input or its actor. */
export const operationPresenter: EventPresenter<typeof TaskEnvelope> = {
  schema: TaskEnvelope,
  present: (snapshot) => serializeTask(OperationRow.parse(snapshot)),
  example: (state) => ({
    id: '0b7e3d9a-4c2f-4a1e-8d6b-5f9e2c1a7b30',
    instance_id: EXAMPLE_IDS.instance,
    kind: 'stop',
    state,
    outcome: { error: { code: 'AGENT_TASK_TIMEOUT', message: 'The hypervisor did not answer in time.' } },
    correlation_id: 'req-5d1c',
    created_at: EXAMPLE_AT,
    finished_at: EXAMPLE_AT,
  }),
};
