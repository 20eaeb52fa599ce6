/**
 * The `Retry-After` of an operation conflict: a fixed polling interval, not an estimate of when
 * the running operation ends (power actions end in seconds, a provisioning in minutes); long
 * enough that a retrying client does not hammer the API, short enough that it rarely waits idle.
 */
export const OPERATION_CONFLICT_RETRY_AFTER_SECONDS = 3;

/**
 * The `Retry-After` of a move refused because its source has as many moves out as it may: a move
 * takes minutes, so a fixed interval well above the operation conflict's.
 */
export const SOURCE_BUSY_RETRY_AFTER_SECONDS = 30;

/**
 * The one error catalogue (SPEC.md §7, DESIGN.md "Errors"). Every error response of every API
 * carries one of these codes, its HTTP status and its customer-safe detail, never a cause.
 */
export const ERROR_CATALOGUE = {
  'SVC-SYS-000': {
    status: 500,
    detail: 'An unexpected error occurred. Quote the support id when contacting support.',
  },
  'SVC-SYS-503': { status: 503, detail: 'A dependency of the service is unavailable. Try again shortly.' },
  'SVC-REQ-400': { status: 400, detail: 'The request is not valid.' },
  'SVC-REQ-JSON': { status: 400, detail: 'The request body is not valid JSON.' },
  'SVC-REQ-413': { status: 413, detail: 'The request body is larger than this route accepts.' },
  'SVC-REQ-415': { status: 415, detail: 'The request body must be sent as application/json.' },
  'SVC-REQ-405': { status: 405, detail: 'The method is not allowed on this path.' },
  'SVC-VERSION-400': {
    status: 400,
    detail: 'The Cloudsvc-Version header names no version of this API (docs/api.md "Versions").',
  },
  'SVC-REQ-429': { status: 429, detail: 'Too many requests. Retry after the time given in Retry-After.' },
  'SVC-RTE-404': { status: 404, detail: 'No such route.' },
  'SVC-RES-404': { status: 404, detail: 'The requested resource was not found.' },
  'SVC-AUTH-401': { status: 401, detail: 'A valid credential is required.' },
  'SVC-AUTH-403': { status: 403, detail: 'This credential is not allowed to use this API.' },
  'SVC-USAGE-422': {
    status: 422,
    detail:
      'The usage range is not one the plane answers: whole UTC hours, `from` before `to`, at most a month.',
  },
  'SVC-IDEMP-409': {
    status: 409,
    detail: 'A request with this Idempotency-Key is still in progress. Retry once it has finished.',
  },
  'SVC-IDEMP-422': {
    status: 422,
    detail: 'The Idempotency-Key was already used with a different request.',
  },
  'SVC-PLACEMENT-409': { status: 409, detail: 'No hypervisor can take this instance now.' },
  'SVC-IP-409': { status: 409, detail: 'The location has no free address left.' },
  'SVC-IP-PRIMARY-409': {
    status: 409,
    detail: 'The primary address cannot be detached; promote another address first.',
  },
  'SVC-PASSWORD-410': {
    status: 410,
    detail: 'The password was shown once already, or its window has passed. Regenerate it to see a new one.',
  },
  'SVC-EVENT-410': {
    status: 410,
    detail:
      'Events after this cursor are no longer kept. Read the resources afresh, then list from the start of what is kept.',
  },
  'SVC-CONFIG-503': { status: 503, detail: 'The service is not configured for this action.' },
  'SVC-TRANSFER-401': {
    status: 401,
    detail: 'The transfer token is unknown, already redeemed, expired or not for this hypervisor.',
  },
  // Every kind of move answers the MIGRATION_* codes (a storage move too): clients handle them by
  // code since migrations were the only kind, so the codes stay and only their details say "move".
  MIGRATION_BLOCKED: { status: 409, detail: 'The move is blocked; see the preflight for its blockers.' },
  MIGRATION_PAST_POINT_OF_NO_RETURN: {
    status: 409,
    detail: 'The move has passed its point of no return: it can no longer be cancelled or rolled back.',
  },
  MIGRATION_NOT_RECOVERABLE: {
    status: 409,
    detail: 'The move is not waiting for a recovery decision.',
  },
  MIGRATION_FINISHED: { status: 409, detail: 'The move has already ended.' },
  MIGRATION_SOURCE_BUSY: {
    status: 409,
    detail:
      'The source hypervisor has as many moves out under way as it may have at once. Retry after the time given in Retry-After.',
    retryAfterSeconds: SOURCE_BUSY_RETRY_AFTER_SECONDS,
  },
  EVACUATION_RUNNING: {
    status: 409,
    detail: 'An evacuation of this hypervisor is already under way; pause, resume or cancel that one.',
  },
  EVACUATION_STATE_CONFLICT: { status: 409, detail: 'The evacuation is not in a state that allows this.' },
  EVACUATION_FINISHED: { status: 409, detail: 'The evacuation has already ended.' },
  EVACUATION_NOT_FINISHED: {
    status: 409,
    detail: 'The evacuation is still under way; its instances can be brought home once it has ended.',
  },
  EVACUATION_NOT_RESTORABLE: {
    status: 409,
    detail: 'Only a hypervisor’s evacuation that ran can be restored.',
  },
  HYPERVISOR_IN_MAINTENANCE: {
    status: 409,
    detail: 'The hypervisor is still in maintenance; take it out of maintenance first.',
  },
  HYPERVISOR_NOT_ONLINE: { status: 409, detail: 'The hypervisor’s agent is not online.' },
  MIGRATION_LEASE_LOST: {
    status: 409,
    detail: 'The move lost its lease on the instance (it was not renewed in time), so it stopped.',
  },
  // A live move's failure codes when its convergence policy gave it up before the switch (docs/
  // migration.md "When a move cannot converge"): rolled back, the guest running on at the source.
  MIGRATION_NOT_CONVERGING: {
    status: 409,
    detail:
      'The live move did not converge within its completion timeout; it was cancelled and the guest runs on where it was.',
  },
  MIGRATION_STALLED: {
    status: 409,
    detail:
      'The live move made no progress within its progress timeout; it was cancelled and the guest runs on where it was.',
  },
  'SVC-CONFLICT-409': { status: 409, detail: 'The resource is not in a state that allows this action.' },
  'SVC-OP-409': {
    status: 409,
    detail: 'Another operation on this resource is in progress. Retry after the time given in Retry-After.',
    retryAfterSeconds: OPERATION_CONFLICT_RETRY_AFTER_SECONDS,
  },
  EXTERNAL_ID_TAKEN: {
    status: 409,
    detail: 'Another resource of this kind already has this external_id.',
  },
  'SVC-INUSE-409': { status: 409, detail: 'The resource is in use and cannot be deleted.' },
  'SVC-QUOTA-409': { status: 409, detail: 'The limit of this kind of resource has been reached.' },
  // A user's own quota (set by the provider per account), apart from the panel-wide limits above;
  // its error carries `meta` naming the resource, the limit, the usage and the amount requested.
  QUOTA_EXCEEDED: {
    status: 409,
    detail: 'The order would take the account past a quota the provider set; free some or ask for more.',
  },
  // docs/api.md "Image versions": an image with versions is ordered only where one is held ready.
  IMAGE_NOT_AVAILABLE: {
    status: 409,
    detail: 'The image is not available in this location yet: no version of it is ready on its hypervisors.',
  },
  ISO_MOUNTED: {
    status: 409,
    detail: 'The ISO is in its instance’s CD-ROM drive; unmount it first.',
  },
  INSTANCE_MIGRATING: {
    status: 409,
    detail: 'The instance is being moved (a migration or a storage move); try again once the move ends.',
  },
  INSTANCE_SUSPENDED: {
    status: 409,
    detail: 'The instance is suspended by the provider; contact them to lift the suspension.',
  },
  'SVC-HV-409': { status: 409, detail: 'The hypervisor is not accepting work.' },
  // Plan changes (docs/api.md "Plan changes"): each refusal changes nothing.
  RESIZE_PLAN_UNKNOWN: { status: 400, detail: 'No plan of that code is offered.' },
  RESIZE_PLAN_OTHER_LOCATION: {
    status: 409,
    detail: 'The plan is not offered in the instance’s location.',
  },
  RESIZE_PLAN_NOT_ALLOWED: {
    status: 409,
    detail: 'The instance’s plan cannot be changed to that plan by its customer; ask the provider.',
  },
  RESIZE_DISK_SHRINK: {
    status: 409,
    detail: 'A disk never shrinks; the new size must keep it at least as large.',
  },
  RESIZE_MOVE_FAILED: {
    status: 409,
    detail: 'The move before the plan change failed; the instance stays where it was, as it was.',
  },
  RESIZE_NEEDS_MOVE: {
    status: 409,
    detail: 'The instance’s hypervisor lacks the room for the new size; it must move first (`allow_move`).',
  },
  'SVC-CAPACITY-409': { status: 409, detail: 'The instance’s hypervisor lacks the room for this change.' },
  'SVC-CONSOLE-401': {
    status: 401,
    detail: 'The console connect token is unknown, already used or expired, or its session has ended.',
  },
  'SVC-ADMIN-LOGIN-401': {
    status: 401,
    detail: 'The key is not a live application key of an administrator.',
  },
  'SVC-ADMIN-LOGIN-403': {
    status: 403,
    detail: 'Only an administrator’s application key opens the admin pages.',
  },
  'SVC-CSRF-403': {
    status: 403,
    detail: 'The form is stale or was not sent from this site’s pages. Reload the page and try again.',
  },
  'SVC-ENROLL-401': { status: 401, detail: 'The enrollment token is unknown, already used or expired.' },
  'SVC-REPORT-409': {
    status: 409,
    detail: 'This sequence number of the task was already used by a report of another kind.',
  },
} as const satisfies Record<string, { status: number; detail: string; retryAfterSeconds?: number }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Facts a client may act on beside the detail, by code (QUOTA_EXCEEDED's resource, limit, usage). */
export type ErrorMeta = Readonly<Record<string, string | number>>;

export interface FieldIssue {
  readonly field: string;
  readonly detail: string;
}

/**
 * An error with a catalogue code. `detail` may refine the catalogue text but must stay
 * customer-safe; `cause` is for the log only and never reaches a response.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;
  readonly fields: readonly FieldIssue[];
  readonly headers: Readonly<Record<string, string>>;
  readonly meta: ErrorMeta | undefined;

  constructor(
    code: ErrorCode,
    options: {
      detail?: string;
      cause?: unknown;
      fields?: readonly FieldIssue[];
      headers?: Record<string, string>;
      meta?: ErrorMeta;
    } = {},
  ) {
    const entry = ERROR_CATALOGUE[code];
    super(options.detail ?? entry.detail, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = entry.status;
    this.detail = options.detail ?? entry.detail;
    this.fields = options.fields ?? [];
    this.headers = options.headers ?? retryAfter(entry);
    this.meta = options.meta;
  }
}

/** A code that comes back by itself says when to try again, unless its thrower knows better. */
function retryAfter(entry: (typeof ERROR_CATALOGUE)[ErrorCode]): Record<string, string> {
  return 'retryAfterSeconds' in entry ? { 'Retry-After': String(entry.retryAfterSeconds) } : {};
}

export const notFound = (): ApiError => new ApiError('SVC-RES-404');

/**
 * The 404 of a resource the request body names (`{ "instance": uuid }`): the same for an unknown
 * and another customer's (SPEC.md §1 convention 2), and it says which field named it, so a caller
 * does not take it for the path's resource.
 */
export const notFoundIn = (field: string): ApiError =>
  new ApiError('SVC-RES-404', {
    fields: [
      { field, detail: `${field}: no such resource; the uuid in ${field} names nothing you can reach.` },
    ],
  });

/** What a domain rule answers: allowed, or refused with a catalogue code and a customer-safe detail. */
export type Verdict = { ok: true } | { ok: false; code: ErrorCode; detail: string };
