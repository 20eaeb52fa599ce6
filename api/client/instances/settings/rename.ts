import { instanceName } from '../../../../domain/instances/settings.js';
import { settingRoute } from './definition.js';

export const { register } = settingRoute({
  setting: 'rename',
  field: 'name',
  value: instanceName.openapi({ example: 'web-1' }),
  bodyName: 'RenameRequest',
  summary: 'Rename the instance',
  description:
    'Changes `name`, the panel’s label of the instance (1 to 100 characters, trimmed); the guest is not touched.',
  changed: 'The instance with its new name.',
});
