import { deleteImage } from '../../../services/catalogue/images.js';
import { commonErrors, conflictResponse, notFoundResponse } from '../../../wire/schemas.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  method: 'delete',
  path: '/images/{image}',
  tag: 'Images',
  summary: 'Delete an image',
  description:
    'Refused while an instance that is not deleted was made from it, or a running rebuild writes it ' +
    '(`SVC-INUSE-409`, the detail counts each); nothing changes then. Deleted instances keep no reference to it. ' +
    'Its versions go with it, their copies removed from the hypervisors as a deleted version’s are ' +
    '(`GET /image-versions/{version}/removals`).',
  responses: {
    204: { description: 'Deleted.' },
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('Instances or a running rebuild use the image (SVC-INUSE-409).'),
  },
  remove: deleteImage,
});
