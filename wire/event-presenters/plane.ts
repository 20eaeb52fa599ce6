import {
  EVACUATION_ITEM_STATES,
  EVACUATION_KINDS,
  EVACUATION_STATES,
  FAILURE_POLICIES,
} from '../../domain/evacuations/states.js';
import { HYPERVISOR_STATUSES } from '../../domain/hypervisors.js';
import { convergencePolicy } from '../../domain/migrations/convergence.js';
import { MIGRATION_MODES } from '../../domain/migrations/states.js';
import { HypervisorEnvelope, serializeHypervisor } from '../serializers/hypervisors/hypervisor.js';
import { EvacuationEnvelope, serializeEvacuation } from '../serializers/moves/evacuation.js';
import { z } from '../zod.js';
import { at, atOrNull, type EventPresenter, EXAMPLE_AT, EXAMPLE_IDS } from './presenter.js';

// The plane's own resources, as the Application API shows them; only the plane's endpoints
// receive their events.

/** An evacuation's row with its hypervisor's name, and how many of its instances stand where. */
const EvacuationSnapshot = z.object({
  id: z.string(),
  hypervisor_id: z.string(),
  hypervisor_name: z.string(),
  state: z.enum(EVACUATION_STATES),
  mode: z.enum(MIGRATION_MODES),
  max_parallel: z.number().int(),
  max_parallel_per_target: z.number().int(),
  on_failure: z.enum(FAILURE_POLICIES),
  max_attempts: z.number().int(),
  convergence: convergencePolicy.nullable(),
  workflow_id: z.string(),
  requested_by: z.string(),
  reason: z.string().nullable(),
  maintenance_before: z.boolean(),
  kind: z.enum(EVACUATION_KINDS),
  from_backend: z.string().nullable(),
  to_backend: z.string().nullable(),
  restores: z.string().nullable(),
  failure: z.record(z.string(), z.unknown()).nullable(),
  created_at: at,
  updated_at: at,
  finished_at: atOrNull,
  counts: z.partialRecord(z.enum(EVACUATION_ITEM_STATES), z.number().int()),
});

export const evacuationPresenter: EventPresenter<typeof EvacuationEnvelope> = {
  schema: EvacuationEnvelope,
  present(snapshot) {
    const { counts, ...row } = EvacuationSnapshot.parse(snapshot);
    return serializeEvacuation(row, counts);
  },
  example: (state) => ({
    id: 'e7a9c1d3-5f7b-4d9e-b1a3-5c7e9a1d3f5b',
    hypervisor_id: EXAMPLE_IDS.hypervisor,
    hypervisor_name: 'hv-fra1-07',
    state,
    mode: 'AUTO',
    max_parallel: 2,
    max_parallel_per_target: 1,
    on_failure: 'skip',
    max_attempts: 3,
    convergence: null,
    workflow_id: 'evacuate-e7a9c1d3-5f7b-4d9e-b1a3-5c7e9a1d3f5b',
    requested_by: 'admin:9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d',
    reason: 'Firmware upgrade',
    maintenance_before: false,
    kind: 'hypervisor',
    from_backend: null,
    to_backend: null,
    restores: null,
    failure: null,
    created_at: EXAMPLE_AT,
    updated_at: EXAMPLE_AT,
    finished_at: state === 'completed' ? EXAMPLE_AT : null,
    counts: state === 'completed' ? { moved: 5 } : { pending: 3, migrating: 2 },
  }),
};

const strings = z.array(z.string());

/** A hypervisor's row as its repository reads it (no credential lives in it). */
const HypervisorSnapshot = z.object({
  id: z.string(),
  name: z.string(),
  location_id: z.string(),
  status: z.enum(HYPERVISOR_STATUSES),
  maintenance: z.boolean(),
  capabilities: strings,
  storage_backends: strings,
  cpu_cores: z.number().int(),
  memory_mb: z.number().int(),
  disk_mb: z.number().int(),
  free_cpu_cores: z.number().int().nullable(),
  free_memory_mb: z.number().int().nullable(),
  free_disk_mb: z.number().int().nullable(),
  agent_version: z.string().nullable(),
  reported_capabilities: strings.nullable(),
  withheld_capabilities: strings,
  migration_bandwidth_mbps: z.number().int().nullable(),
  last_seen_at: atOrNull,
  inventory_reported_at: atOrNull,
  enrolled_at: atOrNull,
  created_at: at,
  updated_at: at,
});

export const hypervisorPresenter: EventPresenter<typeof HypervisorEnvelope> = {
  schema: HypervisorEnvelope,
  present: (snapshot) => serializeHypervisor(HypervisorSnapshot.parse(snapshot)),
  example: (status) => ({
    id: EXAMPLE_IDS.hypervisor,
    name: 'hv-fra1-07',
    location_id: EXAMPLE_IDS.location,
    status,
    maintenance: false,
    capabilities: ['live_migration'],
    storage_backends: ['lvm'],
    cpu_cores: 64,
    memory_mb: 262144,
    disk_mb: 4194304,
    free_cpu_cores: 40,
    free_memory_mb: 180224,
    free_disk_mb: 2097152,
    agent_version: '1.4.0',
    reported_capabilities: ['live_migration', 'console_serial'],
    withheld_capabilities: [],
    migration_bandwidth_mbps: null,
    last_seen_at: EXAMPLE_AT,
    inventory_reported_at: EXAMPLE_AT,
    enrolled_at: EXAMPLE_AT,
    created_at: EXAMPLE_AT,
    updated_at: EXAMPLE_AT,
  }),
};
