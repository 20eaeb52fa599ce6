import { findImage } from '../../../db/repositories/catalogue/images.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import { AdminImageEnvelope, serializeAdminImage } from '../../../wire/serializers/catalogue/image.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  method: 'get',
  path: '/images/{image}',
  tag: 'Images',
  summary: 'Show an image',
  responses: {
    200: jsonContent(AdminImageEnvelope, 'The image.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findImage,
  serialize: serializeAdminImage,
});
