import { findIpPool } from '../../../db/repositories/ip-pools.js';
import { IpPoolEnvelope, serializeIpPool } from '../../../wire/serializers/ip-pool.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'ip-pools',
  param: 'pool',
  tag: 'IP pools',
  summary: 'Show an IP pool',
  envelope: IpPoolEnvelope,
  find: findIpPool,
  serialize: serializeIpPool,
});
