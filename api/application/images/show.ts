import { findImage } from '../../../db/repositories/images.js';
import { AdminImageEnvelope, serializeAdminImage } from '../../serializers/image.js';
import { catalogueShowRoute } from '../catalogue/show-route.js';

export const { register } = catalogueShowRoute({
  resources: 'images',
  param: 'image',
  tag: 'Images',
  summary: 'Show an image',
  envelope: AdminImageEnvelope,
  find: findImage,
  serialize: serializeAdminImage,
});
