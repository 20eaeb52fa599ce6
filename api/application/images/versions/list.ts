import { listImageVersionViews } from '../../../../db/repositories/catalogue/image-version-views.js';
import { findImage } from '../../../../db/repositories/catalogue/images.js';
import { commonErrors, jsonContent, listEnvelope, notFoundResponse } from '../../../../wire/schemas.js';
import {
  ImageVersionEnvelope,
  serializeImageVersion,
} from '../../../../wire/serializers/catalogue/image-version.js';
import { childListRoute } from '../../child-list-route.js';

export const { register } = childListRoute({
  method: 'get',
  path: '/images/{image}/versions',
  tag: 'Images',
  summary: 'List an image’s versions',
  description: 'Newest first, paginated, each with every hypervisor’s copy and its state.',
  responses: {
    200: jsonContent(listEnvelope(ImageVersionEnvelope, 'ImageVersionList'), 'A page of versions.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  find: findImage,
  list: async (db, image, page) => {
    const { views, total } = await listImageVersionViews(db, image, page);
    return { rows: views, total };
  },
  serialize: serializeImageVersion,
});
