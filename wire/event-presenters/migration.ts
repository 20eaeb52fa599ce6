import { convergencePolicy } from '../../domain/migrations/convergence.js';
import { LiveProgressRecord } from '../../domain/migrations/live-progress.js';
import { WARNING_CODES } from '../../domain/migrations/preflight.js';
import { MIGRATION_MODES, MIGRATION_STATES, MIGRATION_STRATEGIES } from '../../domain/migrations/states.js';
import { MigrationEnvelope, serializeMigration } from '../serializers/moves/migration.js';
import { z } from '../zod.js';
import { at, atOrNull, type EventPresenter, EXAMPLE_AT, EXAMPLE_IDS } from './presenter.js';

const detail = z.record(z.string(), z.unknown());

/** A migration as its repository reads it (both hypervisors, its lease, its history), from its subject function. */
const MigrationSnapshot = z.object({
  id: z.string(),
  instance_id: z.string(),
  source_hypervisor_id: z.string(),
  target_hypervisor_id: z.string(),
  mode: z.enum(MIGRATION_MODES),
  strategy: z.enum(MIGRATION_STRATEGIES),
  state: z.enum(MIGRATION_STATES),
  operation_id: z.string(),
  workflow_id: z.string(),
  requested_by: z.string(),
  reason: z.string().nullable(),
  warnings: z.array(z.object({ code: z.enum(WARNING_CODES), detail: z.string() })),
  network_plan: detail,
  failed_step: z.string().nullable(),
  interruption_ms: z.number().int().nullable(),
  convergence: convergencePolicy.nullable(),
  // The serializer shows a record it cannot read as none; so does the event.
  live_progress: LiveProgressRecord.nullable().catch(null),
  failure: detail.nullable(),
  recovery: detail.nullable(),
  retain_source_until: atOrNull,
  created_at: at,
  updated_at: at,
  finished_at: atOrNull,
  source_name: z.string(),
  source_location_id: z.string(),
  target_name: z.string(),
  target_location_id: z.string(),
  lease_holder: z.string().nullable(),
  lease_expires_at: atOrNull,
  history: z.array(z.object({ state: z.enum(MIGRATION_STATES), detail, at })),
});

/** As administrators see it (Application API): migration events go to the plane's endpoints only. */
export const migrationPresenter: EventPresenter<typeof MigrationEnvelope> = {
  schema: MigrationEnvelope,
  present: (snapshot, context) => serializeMigration(MigrationSnapshot.parse(snapshot), context.links),
  example: (state) => ({
    id: 'c4e6a8b0-2d4f-4b6d-8f0a-2c4e6a8b0d2f',
    instance_id: EXAMPLE_IDS.instance,
    source_hypervisor_id: EXAMPLE_IDS.hypervisor,
    target_hypervisor_id: 'd5f7b9c1-3e5a-4c7e-9a1b-3d5f7b9c1e3a',
    mode: 'AUTO',
    strategy: 'live',
    state,
    operation_id: '0b7e3d9a-4c2f-4a1e-8d6b-5f9e2c1a7b30',
    workflow_id: 'migrate-c4e6a8b0-2d4f-4b6d-8f0a-2c4e6a8b0d2f',
    requested_by: 'admin:9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d',
    reason: 'Host maintenance',
    warnings: [],
    network_plan: { mode: 'same_ip', addresses: ['203.0.113.10'], interruption_expected: false },
    failed_step: null,
    interruption_ms: state === 'COMPLETED' ? 180 : null,
    convergence: null,
    live_progress: null,
    failure: null,
    recovery: null,
    retain_source_until: null,
    created_at: EXAMPLE_AT,
    updated_at: EXAMPLE_AT,
    finished_at: state === 'REQUESTED' ? null : EXAMPLE_AT,
    source_name: 'hv-fra1-07',
    source_location_id: EXAMPLE_IDS.location,
    target_name: 'hv-fra1-12',
    target_location_id: EXAMPLE_IDS.location,
    lease_holder: null,
    lease_expires_at: null,
    history: [{ state, detail: {}, at: EXAMPLE_AT }],
  }),
};
