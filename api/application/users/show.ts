import { findUser } from '../../../db/repositories/users.js';
import { serializeUser, UserEnvelope } from '../../../wire/serializers/user.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'users',
  param: 'user',
  tag: 'Users',
  summary: 'Show a user',
  envelope: UserEnvelope,
  find: findUser,
  serialize: serializeUser,
});
