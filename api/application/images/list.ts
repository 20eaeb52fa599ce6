import { listImages } from '../../../db/repositories/catalogue/images.js';
import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import { AdminImageEnvelope, serializeAdminImage } from '../../../wire/serializers/catalogue/image.js';
import { catalogueListRoute } from '../../routes-kit/catalogue-list-route.js';

export const { register } = catalogueListRoute({
  method: 'get',
  path: '/images',
  tag: 'Images',
  summary: 'List images',
  description: 'Every image, public or not, by name.',
  responses: {
    200: jsonContent(listEnvelope(AdminImageEnvelope, 'AdminImageList'), 'A page of the list.'),
    ...commonErrors,
  },
  list: (db, page) => listImages(db, page, 'all'),
  serialize: serializeAdminImage,
});
