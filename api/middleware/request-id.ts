import { randomUUID } from 'node:crypto';

/**
 * The longest `X-Request-Id` kept, in bytes as sent: a correlation id is a key to look lines up
 * by, not a payload, and every log line of the request repeats it. A longer one is replaced by a
 * generated id (docs/api.md "Conventions").
 */
export const MAX_REQUEST_ID_BYTES = 200;

/** The request id, and how the response header carries it. */
export interface RequestId {
  /** As the caller sent it (UTF-8 decoded): bound to the log lines, passed on as the correlation id. */
  readonly id: string;
  /** What `X-Request-Id` answers: the id itself when it is printable ASCII, else it percent-encoded. */
  readonly header: string;
  /** Whether the caller's value was set aside (absent, empty or too long). */
  readonly generated: boolean;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * SPEC.md §1 convention 3: the caller's `X-Request-Id` is reused, whatever it holds. Node hands a
 * header over as one character per byte (latin-1), so a UTF-8 value is decoded from its bytes; a
 * value that is not UTF-8 is kept percent-encoded. The echo escapes what a header cannot carry
 * unchanged (bytes outside printable ASCII, and `%` itself), so it can be decoded back.
 */
export function takeRequestId(offered: string | undefined): RequestId {
  if (offered !== undefined && offered.length > 0 && offered.length <= MAX_REQUEST_ID_BYTES) {
    if (PRINTABLE_ASCII.test(offered)) return { id: offered, header: offered, generated: false };
    const bytes = Buffer.from(offered, 'latin1');
    const header = percentEncoded(bytes);
    return { id: decodedOr(bytes, header), header, generated: false };
  }
  const id = randomUUID();
  return { id, header: id, generated: true };
}

function decodedOr(bytes: Buffer, fallback: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return fallback;
  }
}

function percentEncoded(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
