import { listImages } from '../../../db/repositories/images.js';
import { AdminImageEnvelope, serializeAdminImage } from '../../../wire/serializers/image.js';
import { catalogueListRoute } from '../../routes-kit/catalogue-list-route.js';

export const { register } = catalogueListRoute({
  path: '/images',
  tag: 'Images',
  summary: 'List images',
  description: 'Every image, public or not, by name.',
  listName: 'AdminImageList',
  envelope: AdminImageEnvelope,
  list: (db, page) => listImages(db, page, 'all'),
  serialize: serializeAdminImage,
});
