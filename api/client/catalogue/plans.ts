import { listPlans } from '../../../db/repositories/catalogue/plans.js';
import { commonErrors, jsonContent, listEnvelope } from '../../../wire/schemas.js';
import { PlanEnvelope, serializePlan } from '../../../wire/serializers/catalogue/plan.js';
import { catalogueListRoute } from '../../routes-kit/catalogue-list-route.js';

export const { register } = catalogueListRoute({
  method: 'get',
  path: '/plans',
  tag: 'Catalogue',
  summary: 'List the plans that can be ordered',
  description:
    'The plans on sale, by code: `POST /` takes its `code` as `plan`. A plan the provider withdrew ' +
    '(`is_public: false`) is not listed and cannot be ordered.',
  responses: {
    200: jsonContent(listEnvelope(PlanEnvelope, 'PlanList'), 'A page of the list.'),
    ...commonErrors,
  },
  list: (db, page) => listPlans(db, page, 'public'),
  serialize: serializePlan,
});
