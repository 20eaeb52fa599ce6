import { timezone } from '../../../../domain/instances/settings.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../../wire/schemas.js';
import { InstanceEnvelope } from '../../../../wire/serializers/instances/instance.js';
import { settingRefused, settingRoute } from './definition.js';

export const { register } = settingRoute({
  setting: 'timezone',
  method: 'patch',
  path: '/{cloudInstance}/settings/timezone',
  field: 'timezone',
  value: timezone.openapi({ example: 'Europe/Berlin' }),
  bodyName: 'TimezoneRequest',
  summary: 'Change the timezone',
  description:
    'An IANA time zone name, or `UTC`: one the server’s time zone data lists (`Europe/Berlin`), or a current ' +
    'name it knows under an older one (`Asia/Kolkata`, `Europe/Kyiv`); spelled in the database’s case, as a ' +
    'guest looks its zone up by exact name. The panel’s record changes at once; the hypervisor applies the ' +
    'timezone to the guest at the next rebuild (the rebuild task carries it).',
  responses: {
    200: jsonContent(InstanceEnvelope, 'The instance with its new timezone.'),
    ...commonErrors,
    ...notFoundResponse,
    ...settingRefused,
  },
});
