import { findIpPool, listPoolAddresses } from '../../../db/repositories/network/ip-pools.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../wire/schemas.js';
import { PoolAddressEnvelope, serializePoolAddress } from '../../../wire/serializers/network/ip-pool.js';
import { childListRoute } from '../child-list-route.js';

export const { register } = childListRoute({
  method: 'get',
  path: '/ip-pools/{pool}/addresses',
  tag: 'IP pools',
  summary: 'List a pool’s taken addresses',
  description:
    'Each address the pool has handed out, by address, with the instance and account holding it. ' +
    'Paginated with `page` (from 1) and `per_page` (1 to 100, default 25).',
  responses: {
    200: jsonContent(listEnvelope(PoolAddressEnvelope, 'PoolAddressList'), 'A page of addresses.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findIpPool,
  list: listPoolAddresses,
  serialize: serializePoolAddress,
});
