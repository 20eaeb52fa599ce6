import { HOSTNAME_MAX, hostname } from '../../../../domain/instances/settings.js';
import { settingRoute } from './definition.js';

export const { register } = settingRoute({
  setting: 'hostname',
  field: 'hostname',
  value: hostname.openapi({ example: 'web-1.example.com', maxLength: HOSTNAME_MAX }),
  bodyName: 'HostnameRequest',
  summary: 'Change the hostname',
  description:
    'An RFC 1123 hostname: at most 253 characters, dot-separated labels of 1 to 63 letters, digits and ' +
    'hyphens, no label starting or ending with a hyphen, the last label not all digits. The panel’s record ' +
    'changes at once; the hypervisor applies the hostname to the guest at the next rebuild (the rebuild ' +
    'task carries it).',
  changed: 'The instance with its new hostname.',
});
