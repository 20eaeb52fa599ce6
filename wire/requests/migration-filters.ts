import type { MigrationFilters } from '../../db/repositories/moves/migration-lists.js';
import { MIGRATION_STATES } from '../../domain/migrations/states.js';
import { z } from '../zod.js';

/** The filters of the migrations list: the admin API's query and the list page's form read them alike. */
export const migrationFilterFields = {
  state: z.enum(MIGRATION_STATES).optional(),
  instance: z.string().uuid().optional().openapi({ description: 'Migrations of this instance.' }),
  hypervisor: z.string().uuid().optional().openapi({ description: 'Migrations from or to this hypervisor.' }),
  since: z
    .string()
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'Migrations requested at or after this time.', example: '2026-11-28T22:00:00Z' }),
  until: z
    .string()
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'Migrations requested before this time.', example: '2026-11-29T06:00:00Z' }),
};

export type MigrationFilterQuery = {
  [K in keyof typeof migrationFilterFields]?: z.infer<(typeof migrationFilterFields)[K]>;
};

export const migrationFiltersOf = ({
  state,
  instance,
  hypervisor,
  since,
  until,
}: MigrationFilterQuery): MigrationFilters => ({
  ...(state ? { state } : {}),
  ...(instance ? { instanceId: instance } : {}),
  ...(hypervisor ? { hypervisorId: hypervisor } : {}),
  ...(since ? { since: new Date(since) } : {}),
  ...(until ? { until: new Date(until) } : {}),
});
