import { findIpPool } from '../../../db/repositories/network/ip-pools.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { IpPoolEnvelope, serializeIpPool } from '../../../wire/serializers/network/ip-pool.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/ip-pools/{pool}',
  tag: 'IP pools',
  summary: 'Show an IP pool',
  responses: {
    200: jsonContent(IpPoolEnvelope, 'The pool.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findIpPool,
  serialize: serializeIpPool,
});
