import { createHash } from 'node:crypto';
import { isMap, parseDocument } from 'yaml';
import type { ErrorCode } from '../errors.js';
import { USER_DATA_MAX_BYTES, type UserDataKind, userDataKind } from './user-data.js';

/** A user-data accepted: its text, what it is, and what the instance's envelope says of it. */
export interface UserData {
  readonly text: string;
  readonly kind: UserDataKind;
  readonly bytes: number;
  /** Hex SHA-256 of the decoded bytes: the customer compares it with their own file's. */
  readonly sha256: string;
}

export type UserDataVerdict =
  | { readonly ok: true; readonly userData: UserData }
  | { readonly ok: false; readonly code: ErrorCode; readonly detail: string };

const refuse = (detail: string): UserDataVerdict => ({ ok: false, code: 'SVC-REQ-400', detail });

// RFC 4648 §4 with its padding; line breaks (as `base64` writes every 76 characters) are dropped first.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * `user_data` as a request carries it, base64 of the bytes the guest gets: decoded, bounded, UTF-8,
 * a script (`#!`) or a cloud-config whose YAML is a mapping. A cloud-config cloud-init cannot read
 * is refused here rather than ignored in the guest, where nobody would see why.
 */
export function judgeUserData(encoded: string): UserDataVerdict {
  const compact = encoded.replace(/[\r\n]/g, '');
  if (!BASE64.test(compact)) return refuse('Must be base64 (RFC 4648, with its padding).');
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) return refuse('Is empty; leave it out for none.');
  if (bytes.length > USER_DATA_MAX_BYTES)
    return refuse(`Is ${bytes.length} bytes once decoded; at most ${USER_DATA_MAX_BYTES}.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return refuse('Must decode to UTF-8 text.');
  }
  const kind = userDataKind(text);
  if (!kind)
    return refuse('Must be a cloud-config (first line `#cloud-config`) or a script (first line `#!`).');
  if (kind === 'cloud-config') {
    const problem = cloudConfigProblem(text);
    if (problem) return refuse(problem);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { ok: true, userData: { text, kind, bytes: bytes.length, sha256 } };
}

/**
 * What cloud-init's YAML reader would refuse: YAML 1.1 (PyYAML's), repeated keys allowed (the last
 * wins there too), and a mapping at the top, or nothing after the first line.
 */
function cloudConfigProblem(text: string): string | undefined {
  const document = parseDocument(text, { version: '1.1', uniqueKeys: false });
  const [error] = document.errors;
  if (error) {
    // The parser's first line names the problem and where it is; the lines after quote the input.
    return `Is not valid YAML: ${error.message.split('\n', 1)[0]!.replace(/:$/, '')}.`;
  }
  if (document.contents !== null && !isMap(document.contents))
    return 'A cloud-config must be a YAML mapping (`key: value` lines).';
  return undefined;
}
