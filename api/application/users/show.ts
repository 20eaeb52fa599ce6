import { findUser } from '../../../db/repositories/accounts/users.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { serializeUser, UserEnvelope } from '../../../wire/serializers/accounts/user.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/users/{user}',
  tag: 'Users',
  summary: 'Show a user',
  responses: {
    200: jsonContent(UserEnvelope, 'The user.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findUser,
  serialize: serializeUser,
});
