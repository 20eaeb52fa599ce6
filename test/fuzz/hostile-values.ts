/** The raw material of hostile requests (issue "Hostile input and abuse", item 6). */

/** Text no field may hold: NUL, other controls, DEL, C1, and surrogates that pair with nothing. */
export const REFUSED_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\udc00\ud800y',
  '\ud83d',
  '\u001b[2J',
  '\u0007',
  '\u0008',
  '\u007f',
  '\u0085',
  '\u009b31m',
  '\u000b',
  '\u000c',
];

/** Numbers beyond what columns and JavaScript hold, as JSON literals (some parse to Infinity or 0). */
export const EXTREME_NUMBER_LITERALS = [
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '18446744073709551616',
  '123456789012345678901234567890',
  '1e308',
  '-1e308',
  '1.7976931348623157e308',
  '1e400',
  '-1e400',
  '5e-324',
  '1e-400',
  '-0',
  '0.5',
  '-1',
  '1.0000000000000002',
  '2147483647.5',
  '1E+2',
];

export const MALFORMED_UUIDS = (uuid: string) => [
  '',
  ' ',
  'not-a-uuid',
  'null',
  'undefined',
  '0',
  '-1',
  uuid.replaceAll('-', ''),
  `{${uuid}}`,
  `${uuid} `,
  ` ${uuid}`,
  `${uuid}\n`,
  `${uuid}\u0000`,
  uuid.slice(0, -1),
  `${uuid}0`,
  uuid.replace(/[0-9a-f]/, 'g'),
  `${uuid},${uuid}`,
  `urn:uuid:${uuid}`,
  "' OR '1'='1",
  '../../etc/passwd',
  'x'.repeat(5000),
  '\ud800',
  '😀'.repeat(9),
];

/** UUID-shaped strings a strict parser may still refuse: nil, max, wrong version, upper case. */
export const ODD_UUIDS = (uuid: string) => [
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  `${uuid.slice(0, 14)}0${uuid.slice(15)}`,
  `${uuid.slice(0, 14)}f${uuid.slice(15)}`,
  uuid.toUpperCase(),
];

/** Path segments as sent, already percent-encoded: invalid UTF-8, encoded separators, NUL. */
export const RAW_SEGMENTS = [
  '%00',
  '%FF',
  '%ED%A0%80',
  '%C0%AF',
  '%',
  '%zz',
  '%2F',
  '%5C',
  'a%2F..%2Fb',
  '%0A',
  '%0D%0ASet-Cookie:x=1',
  '%E2%80%AE',
  '%F0%9F%9A%80',
  '%25',
  '%3F',
  '%23',
];

/** Bodies that are not JSON, or not quite. */
export const MALFORMED_JSON = (valid: string) => [
  '',
  ' ',
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{a:1}',
  'nul',
  'NaN',
  '[1,2',
  '{"a":1}{"b":2}',
  '{"a":1} x',
  '/* c */ {}',
  '{"\\ud800":1',
  '"\\x00"',
  '\u0000',
  `\ufeff${valid}`,
  valid.slice(0, Math.max(1, Math.floor(valid.length / 2))),
  `${valid},`,
  valid.replace(/"/g, "'"),
];

/** Content types other than JSON: each must get 415 (docs/api.md "Conventions"). */
export const NON_JSON_CONTENT_TYPES = [
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'application/jsonx',
  'json',
  '*/*',
  '',
];

/** JSON content types written unusually; a server may take them or not. */
export const ODD_JSON_CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json; charset=latin1',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json; boundary=x; x=y',
];

/** A marker no generator produces: where a mass-assigned value lands, it is found. */
export const MARKER_UUID = 'fa57c4ec-0000-4000-8000-00000000f022';
/** A time no generator produces (they stay within 2010–2090). */
export const MARKER_TIME = '1987-06-05T04:03:02.001Z';
export const MARKER_DATE = '1987-06-05';

/**
 * Fields a caller must never set (issue 7: status, owner, hypervisor, timestamps), with values
 * that show up in the database or the answer if they were taken.
 */
export const MASS_ASSIGNMENT: Record<string, unknown> = {
  status: 'error',
  state: 'completed',
  user_id: MARKER_UUID,
  user_uuid: MARKER_UUID,
  owner: MARKER_UUID,
  owner_uuid: MARKER_UUID,
  owner_id: MARKER_UUID,
  account_uuid: MARKER_UUID,
  role: 'admin',
  hypervisor: MARKER_UUID,
  hypervisor_id: MARKER_UUID,
  hypervisor_uuid: MARKER_UUID,
  source_hypervisor_uuid: MARKER_UUID,
  target_hypervisor_uuid: MARKER_UUID,
  placement: { hypervisor_uuid: MARKER_UUID, location_uuid: MARKER_UUID },
  location_id: MARKER_UUID,
  id: MARKER_UUID,
  uuid: MARKER_UUID,
  created_at: MARKER_TIME,
  updated_at: MARKER_TIME,
  deleted_at: MARKER_TIME,
  last_seen_at: MARKER_TIME,
  finished_at: MARKER_TIME,
  is_admin: true,
  admin: true,
  maintenance: true,
  credential_id: MARKER_UUID,
  token_hash: MARKER_UUID,
  attributes: { status: 'error', uuid: MARKER_UUID },
};
