import { findUser } from '../../../db/repositories/users.js';
import { serializeUser, UserEnvelope } from '../../serializers/user.js';
import { catalogueShowRoute } from '../catalogue/show-route.js';

export const { register } = catalogueShowRoute({
  resources: 'users',
  param: 'user',
  tag: 'Users',
  summary: 'Show a user',
  envelope: UserEnvelope,
  find: findUser,
  serialize: serializeUser,
});
