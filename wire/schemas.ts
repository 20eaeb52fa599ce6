import { INT4_MAX } from '../domain/input-bounds.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type PageRequest, pagination } from '../domain/pagination.js';
import { QUOTA_RESOURCES } from '../domain/quotas.js';
import { z } from './zod.js';

/** Schemas every API shares, so each route file only names its own. */

export const ErrorEnvelope = z
  .object({
    errors: z.array(
      z.object({
        code: z.string().openapi({ example: 'SVC-RES-404' }),
        status: z.number().int().openapi({ example: 404 }),
        detail: z.string().openapi({
          description:
            "Customer-safe, and says what to do: a refused field's detail starts with its path " +
            '(`hostname: Required (a string).`); a 403 names the credential type the API takes; ' +
            'a 409 SVC-OP-409 comes with `Retry-After` (a fixed 3 s polling interval).',
          example: 'The requested resource was not found.',
        }),
        source: z
          .object({
            field: z.string().openapi({
              description: 'The path of the field in the request (`rules.0.port`, `instance`, `cursor`).',
              example: 'hostname',
            }),
          })
          .optional()
          .openapi({
            description:
              'Which field of the request the error is about: every SVC-REQ-400 of a field, and the ' +
              'SVC-RES-404 of a resource the body named (`{ "instance": uuid }`).',
          }),
        meta: z
          .object({
            resource: z.enum(QUOTA_RESOURCES).openapi({ description: 'The resource over its quota.' }),
            limit: z.number().int().openapi({ description: 'The most of it the account may hold.' }),
            usage: z.number().int().openapi({ description: 'What the account holds of it now.' }),
            requested: z.number().int().openapi({ description: 'What the refused order would add.' }),
          })
          .optional()
          .openapi({
            description: 'The facts of a QUOTA_EXCEEDED: which quota, its limit, the usage and the request.',
          }),
      }),
    ),
    support_id: z.string().openapi({ example: 'sup_4f1c2a9e0b7d4c1e9a8f6b5d3c2e1f00' }),
  })
  .openapi('Error');

export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorEnvelope } },
});

/** The error responses every authenticated route can give. */
export const commonErrors = {
  400: errorResponse('Invalid input (SVC-REQ-400), malformed JSON (SVC-REQ-JSON).'),
  401: errorResponse('Missing, unknown, revoked or expired credential (SVC-AUTH-401).'),
  403: errorResponse(
    'A credential of another type (SVC-AUTH-403); the detail names the type this API takes.',
  ),
  413: errorResponse('A request body larger than BODY_LIMIT_BYTES (SVC-REQ-413).'),
  415: errorResponse('A request body that is not application/json (SVC-REQ-415).'),
  500: errorResponse('Unexpected error (SVC-SYS-000); quote the support_id.'),
} as const;

export const notFoundResponse = {
  404: errorResponse('Unknown, foreign or malformed identifier (SVC-RES-404).'),
};
export const conflictResponse = (description: string) => ({ 409: errorResponse(description) });
export const goneResponse = (description: string) => ({ 410: errorResponse(description) });
export const unavailableResponse = (description: string) => ({ 503: errorResponse(description) });
/** A write that starts or signals a workflow, refused while Temporal cannot be reached. */
export const workflowUnavailableResponse = {
  503: errorResponse('The workflow service is unavailable (SVC-SYS-503); nothing changed.'),
};
/** Why an operation on an instance may be refused while another holds it. */
export const INSTANCE_BUSY =
  'another operation is in progress (SVC-OP-409); the instance is migrating (INSTANCE_MIGRATING).';
/** …and why a customer's operation on it may be refused besides. */
export const INSTANCE_HELD = `${INSTANCE_BUSY.slice(0, -1)}; the provider suspended it (INSTANCE_SUSPENDED).`;
/** Routes that take no credential accept only small bodies. */
export const unauthenticatedBodyLimitResponse = {
  413: errorResponse('A request body larger than UNAUTHENTICATED_BODY_LIMIT_BYTES (SVC-REQ-413).'),
};
export const rateLimitedResponse = {
  429: errorResponse('Rate limit reached (SVC-REQ-429); see Retry-After.'),
};

/** A response answered with a JSON body of `schema`, as a route lists it. */
export interface JsonResponse<T extends z.ZodType> {
  readonly description: string;
  readonly content: { readonly 'application/json': { readonly schema: T } };
}

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/**
 * A body that may be left out: without one the handler sees `{}` (defaults not applied), with one
 * it is validated like any other.
 */
export const optionalJsonBody = <T extends z.ZodType>(schema: T) => ({
  required: false,
  content: { 'application/json': { schema } },
});

const uuidSchema = (name: string) =>
  z
    .string()
    .uuid()
    .openapi({ param: { name, in: 'path' }, example: '9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d' });

/** A path of one UUID parameter, typed by its name. */
export const uuidParam = <N extends string>(name: N) =>
  z.object({ [name]: uuidSchema(name) } as Record<N, ReturnType<typeof uuidSchema>>);

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1).openapi({ example: 1 }),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PER_PAGE)
    .default(DEFAULT_PER_PAGE)
    .openapi({ example: 25 }),
});

export const PaginationMeta = z
  .object({
    pagination: z.object({
      total: z.number().int(),
      count: z.number().int(),
      per_page: z.number().int(),
      current_page: z.number().int(),
      total_pages: z.number().int(),
    }),
  })
  .openapi('ListMeta');

/** A page of `data` in the list envelope (`listEnvelope`), with its pagination. */
export const listBody = <T>(request: PageRequest, total: number, data: T[]) => ({
  object: 'list' as const,
  data,
  meta: { pagination: pagination(request, total, data.length) },
});

export const listEnvelope = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ object: z.literal('list'), data: z.array(item), meta: PaginationMeta }).openapi(name);
export type ListEnvelope<T extends z.ZodType> = ReturnType<typeof listEnvelope<T>>;
