import { HOSTNAME_MAX, hostname } from '../../../../domain/instances/settings.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../../wire/schemas.js';
import { InstanceEnvelope } from '../../../../wire/serializers/instances/instance.js';
import { settingRefused, settingRoute } from './definition.js';

export const { register } = settingRoute({
  setting: 'hostname',
  method: 'patch',
  path: '/{cloudInstance}/settings/hostname',
  field: 'hostname',
  value: hostname.openapi({ example: 'web-1.example.com', maxLength: HOSTNAME_MAX }),
  bodyName: 'HostnameRequest',
  summary: 'Change the hostname',
  description:
    'An RFC 1123 hostname: at most 253 characters, dot-separated labels of 1 to 63 letters, digits and ' +
    'hyphens, no label starting or ending with a hyphen, the last label not all digits. The panel’s record ' +
    'changes at once; the hypervisor applies the hostname to the guest at the next rebuild (the rebuild ' +
    'task carries it).',
  responses: {
    200: jsonContent(InstanceEnvelope, 'The instance with its new hostname.'),
    ...commonErrors,
    ...notFoundResponse,
    ...settingRefused,
  },
});
