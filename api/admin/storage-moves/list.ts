import { listStorageMovePage } from '../../../services/storage-moves/reads.js';
import { keysetListEnvelope, keysetQuery } from '../../../wire/keyset-list.js';
import {
  storageMoveFilterFields,
  storageMoveFiltersOf,
} from '../../../wire/requests/storage-move-filters.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/moves/storage-move.js';
import { moveListRoute } from '../moves-kit/list.js';

export const { register } = moveListRoute({
  method: 'get',
  path: '/storage-moves',
  tag: 'Storage moves',
  summary: 'List storage moves',
  description:
    'Newest first, filtered by `state`, `instance` and `hypervisor`; the filters combine. Paginated with `page` and ' +
    '`per_page`, or read on with `cursor` (keyset; docs/api.md "Conventions").',
  query: keysetQuery(storageMoveFilterFields),
  responses: {
    200: jsonContent(keysetListEnvelope(StorageMoveEnvelope, 'StorageMoveList'), 'A page of storage moves.'),
    ...commonErrors,
  },
  list: (deps, query, request) => listStorageMovePage(deps, storageMoveFiltersOf(query), request),
  serialize: serializeStorageMove,
});
