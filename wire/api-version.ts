import { API_VERSIONS, CURRENT_API_VERSION } from '../domain/api-versions/versions.js';
import { z } from './zod.js';

/** A dated API version (docs/api.md "Versions"), as the documents name it. */
export const ApiVersionName = z.enum(API_VERSIONS).openapi('ApiVersion', {
  description:
    'A dated version of the API: what its answers and webhook payloads look like (docs/api-changelog.md).',
  example: CURRENT_API_VERSION,
});
