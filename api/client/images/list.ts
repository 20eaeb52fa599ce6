import { listImages } from '../../../db/repositories/catalogue/images.js';
import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import { ImageEnvelope, serializeImage } from '../../../wire/serializers/catalogue/image.js';
import { catalogueListRoute } from '../../routes-kit/catalogue-list-route.js';

export const { register } = catalogueListRoute({
  method: 'get',
  path: '/images',
  tag: 'Images',
  summary: 'List the images available to the caller',
  description:
    'The public images, by name: `POST /` and rebuild take its `code` as `image`. `min_disk_mb` is the ' +
    'smallest disk an instance of the image may have.',
  responses: {
    200: jsonContent(listEnvelope(ImageEnvelope, 'ImageList'), 'A page of the list.'),
    ...commonErrors,
  },
  list: (db, page) => listImages(db, page, 'public'),
  serialize: serializeImage,
});
