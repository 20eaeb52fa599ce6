import { deleteImage } from '../../../services/catalogue/images.js';
import { deleteRoute } from '../delete-route.js';

export const { register } = deleteRoute({
  resources: 'images',
  param: 'image',
  tag: 'Images',
  summary: 'Delete an image',
  description:
    'Refused while an instance that is not deleted was made from it, or a running rebuild writes it ' +
    '(`SVC-INUSE-409`, the detail counts each); nothing changes then. Deleted instances keep no reference to it.',
  held: 'Instances or a running rebuild use the image',
  remove: deleteImage,
});
