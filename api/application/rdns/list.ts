import { listReverseRecords } from '../../../db/repositories/network/reverse-dns.js';
import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import {
  ReverseRecordEnvelope,
  serializeReverseRecord,
} from '../../../wire/serializers/network/reverse-record.js';
import { ownerListRoute } from '../owner-list-route.js';

export const { register } = ownerListRoute({
  method: 'get',
  path: '/rdns',
  tag: 'Reverse DNS',
  summary: 'List reverse DNS records',
  description:
    'Every address that has a reverse DNS name, ordered by address: what the location’s DNS serves as PTR ' +
    'records (an IPv6 address has a record of its own); paginated.',
  responses: {
    200: jsonContent(listEnvelope(ReverseRecordEnvelope, 'ReverseRecordList'), 'A page of records.'),
    ...commonErrors,
  },
  list: listReverseRecords,
  serialize: serializeReverseRecord,
});
