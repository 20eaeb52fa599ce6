import { instanceName } from '../../../../domain/instances/settings.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../../wire/schemas.js';
import { InstanceEnvelope } from '../../../../wire/serializers/instances/instance.js';
import { settingRefused, settingRoute } from './definition.js';

export const { register } = settingRoute({
  setting: 'rename',
  method: 'patch',
  path: '/{cloudInstance}/settings/rename',
  field: 'name',
  value: instanceName.openapi({ example: 'web-1' }),
  bodyName: 'RenameRequest',
  summary: 'Rename the instance',
  description:
    'Changes `name`, the panel’s label of the instance (1 to 100 characters, trimmed); the guest is not touched.',
  responses: {
    200: jsonContent(InstanceEnvelope, 'The instance with its new name.'),
    ...commonErrors,
    ...notFoundResponse,
    ...settingRefused,
  },
});
