import { findLocation } from '../../../db/repositories/catalogue/locations.js';
import { listReverseWithdrawals } from '../../../db/repositories/network/reverse-dns-withdrawals.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../wire/schemas.js';
import {
  ReverseWithdrawalEnvelope,
  serializeReverseWithdrawal,
} from '../../../wire/serializers/network/rdns-withdrawal.js';
import { childListRoute } from '../child-list-route.js';

export const { register } = childListRoute({
  method: 'get',
  path: '/locations/{location}/rdns/withdrawals',
  tag: 'Reverse DNS',
  summary: 'List a location’s PTR deletions not yet done',
  description:
    'The PTR records of the location’s released addresses (an instance deleted, an address detached, a ' +
    'floating IP given back) that its DNS server may still serve: each `pending` until the server answers, ' +
    'or `failed` with the reason. One the server took is gone from the list. By address, paginated.',
  responses: {
    200: jsonContent(listEnvelope(ReverseWithdrawalEnvelope, 'ReverseWithdrawalList'), 'A page of them.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findLocation,
  list: listReverseWithdrawals,
  serialize: serializeReverseWithdrawal,
});
