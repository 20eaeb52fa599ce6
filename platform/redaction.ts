/**
 * What never reaches a log line, in one list (docs/operations.md "Logging"). The logger applies it to every
 * line: the message, the bindings of its context and its fields at any depth, errors and their
 * causes included. A secret is kept out by where it sits (a field whose name says it holds one)
 * and by what it looks like (our credentials, an Authorization value, a password in a URL or in
 * `password=…` text), so that one pasted into a message or an error is caught too.
 */

export const REDACTED = '[redacted]';

/**
 * Field names that hold a secret, compared without case, `_` or `-`: a name that is one of these
 * or ends in one (`task_token`, `taskToken`, `enrollment_token`, `client_secret`, `x-api-key`,
 * `proxy-authorization`, `root_password`, `provider_credentials`, …). `credential_id` and
 * `token_hint` do not end in one, and stay.
 */
export const SECRET_FIELD_NAMES = [
  'authorization',
  'cookie',
  'token',
  'tokens',
  'credential',
  'credentials',
  'password',
  'passphrase',
  'secret',
  'secrets',
  'secretkey',
  'secretskey',
  'apikey',
  'privatekey',
] as const;

/** Secrets recognised by their shape wherever they appear in text, and what replaces each. */
export const SECRET_PATTERNS: readonly { readonly pattern: RegExp; readonly replacement: string }[] = [
  // Our credentials (domain/credentials.ts), migration transfer tokens (cst_) and console connect
  // and stream tokens (cso_, css_): the type prefix stays, to tell what leaked. Six
  // characters after it are a key's non-secret hint; a token has 43.
  { pattern: /(?<![A-Za-z0-9])(cs[acegostw]_)[A-Za-z0-9_-]{8,}/g, replacement: `$1${REDACTED}` },
  // An Authorization header value, wherever it was copied.
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, replacement: `$1 ${REDACTED}` },
  // The password of a connection string (postgres://user:password@host).
  { pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi, replacement: `$1${REDACTED}@` },
  // `password=…`, `secret: …`, `"token":"…"` in free text (an error from a hypervisor or a
  // provider, a body quoted in a message).
  {
    pattern: /(password|passwd|passphrase|secret|token|api[_-]?key)(["']?\s*[=:]\s*["']?)[^\s"',;&}]+/gi,
    replacement: `$1$2${REDACTED}`,
  },
];

const SECRET_NAME = new RegExp(`(?:${SECRET_FIELD_NAMES.join('|')})$`);
// Field names come from code and repeat on every line; the verdicts are kept, up to a bound.
const fieldVerdicts = new Map<string, boolean>();
function isSecretField(name: string): boolean {
  let verdict = fieldVerdicts.get(name);
  if (verdict === undefined) {
    verdict = SECRET_NAME.test(name.toLowerCase().replace(/[-_]/g, ''));
    if (fieldVerdicts.size < 10_000) fieldVerdicts.set(name, verdict);
  }
  return verdict;
}

// What every pattern above needs somewhere in the text: one scan of it spares most text the rest.
const SUSPECT = /cs[acegostw]_|bearer|basic|:\/\/|pass|secret|token|api[_-]?key/i;

/** `text` with every secret of SECRET_PATTERNS replaced. */
export function redactText(text: string): string {
  if (!SUSPECT.test(text)) return text;
  let result = text;
  for (const { pattern, replacement } of SECRET_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/** Deeper than this, a value is cut: a log line is no place for a whole object graph. */
const MAX_DEPTH = 8;

/**
 * A copy of a log line's fields (or bindings) safe to write: secret fields replaced, secrets in
 * text replaced, errors turned into `{ name, message, stack, code?, cause? }` (a cause at any
 * depth), binary data summarised, cycles and depth cut. The input is never changed.
 */
export function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  return redactValue(fields, 0, new Set()) as Record<string, unknown>;
}

function redactValue(value: unknown, depth: number, seen: Set<object>): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  seen.add(value);
  try {
    if (value instanceof Error) return redactValue(describeError(value), depth, seen);
    if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, seen));
    if (value instanceof Map) return redactValue(Object.fromEntries(value), depth, seen);
    const source =
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
        ? (value as { toJSON(): unknown }).toJSON()
        : value;
    if (source !== value) return redactValue(source, depth, seen);
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      copy[key] = isSecretField(key) && child != null ? REDACTED : redactValue(child, depth + 1, seen);
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

/** An error as a plain record; its message and stack are text like any other, and redacted as such. */
function describeError(error: Error): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  };
}
