import { CHANGELOG_PATH, deprecations, type VersionedApi } from '../../domain/api-versions/deprecations.js';
import { API_VERSION_HEADER, API_VERSIONS, CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';

type Operation = {
  parameters?: unknown[];
  responses?: Record<string, { headers?: Record<string, unknown> }>;
  deprecated?: boolean;
};
export type VersionedDocument = {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown> | undefined>;
};

const VERSION_SCHEMA = { type: 'string', enum: [...API_VERSIONS], example: CURRENT_API_VERSION };

/** Written once per document, referenced by every operation (docs/api.md "Versions"). */
const PARAMETERS = {
  ApiVersion: {
    name: API_VERSION_HEADER,
    in: 'header',
    required: false,
    description:
      'The version to answer in, instead of the one the key is pinned to. A value that names no version is ' +
      `refused with 400 SVC-VERSION-400 and changes nothing. This document describes ${CURRENT_API_VERSION}; ` +
      'what older versions answer differently is in docs/api-changelog.md. An answer in a deprecated version ' +
      'carries `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link: <…>; rel="deprecation"`.',
    schema: VERSION_SCHEMA,
  },
};

const VERSION_HEADER = {
  ApiVersion: {
    description: 'The version the answer was rendered in.',
    schema: VERSION_SCHEMA,
  },
};

/** Named only in a document with a deprecated route (an unused component is a lint warning). */
const DEPRECATION_HEADERS = {
  Deprecation: {
    description:
      'RFC 9745: when the version or route asked for was deprecated, as `@<seconds since the epoch>`. Sent only then.',
    schema: { type: 'string', example: '@1796515200' },
  },
  Sunset: {
    description:
      'RFC 8594: the first day the deprecated version or route may no longer be served (an HTTP-date).',
    schema: { type: 'string', example: 'Mon, 06 Dec 2027 00:00:00 GMT' },
  },
  Link: {
    description: `With a deprecation: \`<${CHANGELOG_PATH}>; rel="deprecation"\`, the changelog that says what replaces it.`,
    schema: { type: 'string' },
  },
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * A versioned API's document: the version header every operation takes and every answer
 * carries, with the deprecation headers, each a shared component; an operation the deprecation
 * registry names is marked `deprecated`.
 */
export function withVersionHeaders(document: VersionedDocument, api: VersionedApi): void {
  document.components ??= {};
  const components = document.components;
  components.parameters = { ...components.parameters, ...PARAMETERS };
  components.headers = { ...components.headers, ...VERSION_HEADER };
  const everyAnswer = { [API_VERSION_HEADER]: ref('headers', 'ApiVersion') };
  // An answer in a deprecated version carries them too, on any route: the parameter says so.
  const deprecatedAnswer = {
    ...everyAnswer,
    Deprecation: ref('headers', 'Deprecation'),
    Sunset: ref('headers', 'Sunset'),
    Link: ref('headers', 'Link'),
  };
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!HTTP_METHODS.has(method)) continue;
      operation.parameters = [...(operation.parameters ?? []), ref('parameters', 'ApiVersion')];
      const deprecated = deprecations.ofRoute(api, method, path) !== undefined;
      if (deprecated) {
        operation.deprecated = true;
        components.headers = { ...components.headers, ...DEPRECATION_HEADERS };
      }
      for (const response of Object.values(operation.responses ?? {}))
        response.headers = { ...response.headers, ...(deprecated ? deprecatedAnswer : everyAnswer) };
    }
  }
}
