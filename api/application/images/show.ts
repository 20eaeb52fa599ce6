import { findImage } from '../../../db/repositories/images.js';
import { AdminImageEnvelope, serializeAdminImage } from '../../../wire/serializers/image.js';
import { showRoute } from '../show-route.js';

export const { register } = showRoute({
  resources: 'images',
  param: 'image',
  tag: 'Images',
  summary: 'Show an image',
  envelope: AdminImageEnvelope,
  find: findImage,
  serialize: serializeAdminImage,
});
