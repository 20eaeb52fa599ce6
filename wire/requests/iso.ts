import { text } from '../../domain/input-bounds.js';
import { ISO_URL_MAX } from '../../domain/media/iso-sources.js';
import { isoName } from '../../domain/media/isos.js';

// The fields of an ISO a customer (`POST /{cloudInstance}/media/iso`) and an administrator
// (`POST /isos`, `PATCH /isos/{iso}`) give alike.

export const isoNameField = () =>
  isoName().openapi({
    description: 'Unique in the instance’s library.',
    example: 'debian-12-netinst',
  });

export const isoUrlField = () =>
  text({ max: ISO_URL_MAX }).openapi({
    description:
      'An `https` URL (`http` too where the provider allows it) whose host is public: private, loopback, ' +
      'link-local and metadata addresses are refused, here and again where the hypervisor connects.',
    example: 'https://cdimage.debian.org/debian-cd/current/amd64/iso-cd/debian-12.8.0-amd64-netinst.iso',
  });
