import { listMigrationPage } from '../../../services/migrations/reads.js';
import { keysetListEnvelope, keysetQuery } from '../../../wire/keyset-list.js';
import { migrationFilterFields, migrationFiltersOf } from '../../../wire/requests/migration-filters.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { MigrationEnvelope, serializeMigration } from '../../../wire/serializers/moves/migration.js';
import { moveListRoute } from '../moves-kit/list.js';

export const { register } = moveListRoute({
  method: 'get',
  path: '/migrations',
  tag: 'Migrations',
  summary: 'List migrations',
  description:
    'Newest first, filtered by `state`, `instance`, `hypervisor` (source or target) and the time requested ' +
    '(`since`, `until`); the filters combine. ' +
    'Paginated with `page` and `per_page`, or read on with `cursor` (keyset; docs/api.md "Conventions"). ' +
    'A browser asking for HTML without a credential gets the admin page of the same path instead ' +
    '(docs/admin-pages.md).',
  query: keysetQuery(migrationFilterFields),
  responses: {
    200: jsonContent(keysetListEnvelope(MigrationEnvelope, 'MigrationList'), 'A page of migrations.'),
    ...commonErrors,
  },
  list: (deps, query, request) => listMigrationPage(deps, migrationFiltersOf(query), request),
  serialize: serializeMigration,
});
