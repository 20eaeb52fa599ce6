// Reverse DNS as the plane publishes it: which PTR name an address has, which of a DNS provider's
// zones holds it, and the words a record's publication state is told in. Pure: the driver, the
// services and the API share these rules.

/** A record's publication: the state the DNS server's own answer put it in. */
export const RDNS_STATUSES = ['pending', 'published', 'failed'] as const;
export type RdnsStatus = (typeof RDNS_STATUSES)[number];

/**
 * Why a record is `failed`. Only these words and an HTTP status are kept, never the DNS server's
 * own body, which may echo what it was sent.
 */
export const RDNS_FAILURES = [
  /** The location names no DNS provider any more. */
  'no_dns_provider',
  /** The provider has no credential to call with. */
  'no_credential',
  /** The address is in none of the reverse zones the provider serves. */
  'outside_zones',
  /** The server answered 401 or 403. */
  'unauthorized',
  /** No answer: refused connection, reset, or the time limit. */
  'unreachable',
  /** The server answered the change with an error status. */
  'rejected',
  /** The server answered with something that is not its API's answer. */
  'bad_answer',
  /** The server accepted the change but does not serve it when read back. */
  'not_applied',
  /** The change was recorded but its publishing could not be started; a resync pushes it. */
  'not_started',
] as const;
export type RdnsFailure = (typeof RDNS_FAILURES)[number];

/** Failures worth another try by the workflow's retry policy; the others wait for a change or a resync. */
export const RDNS_TRANSIENT_FAILURES: readonly RdnsFailure[] = [
  'unauthorized',
  'unreachable',
  'rejected',
  'bad_answer',
  'not_applied',
];

/** The customer-safe sentence for a failure (the HTTP status only, never the server's body). */
export function rdnsFailureDetail(failure: RdnsFailure, httpStatus: number | null): string {
  const status = httpStatus === null ? '' : ` (HTTP ${httpStatus})`;
  switch (failure) {
    case 'no_dns_provider':
      return 'The location has no DNS provider.';
    case 'no_credential':
      return 'The location’s DNS provider has no credential set.';
    case 'outside_zones':
      return 'The address is in none of the reverse zones the location’s DNS provider serves.';
    case 'unauthorized':
      return `The DNS server refused the provider’s credential${status}.`;
    case 'unreachable':
      return 'The DNS server did not answer (refused, reset or timed out).';
    case 'rejected':
      return `The DNS server refused the change${status}.`;
    case 'bad_answer':
      return `The DNS server’s answer was not its API’s${status}.`;
    case 'not_applied':
      return 'The DNS server accepted the change but does not serve it.';
    case 'not_started':
      return 'The change could not be queued for publishing; a resync of the location pushes it.';
  }
}

/** The most zones one DNS provider may serve, and the longest zone name. */
export const DNS_ZONES_MAX = 256;
const NAME_MAX = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A reverse zone as stored: lower case, absolute (a trailing dot), under `in-addr.arpa.` or
 * `ip6.arpa.`; null when the text is not one.
 */
export function canonicalReverseZone(value: string): string | null {
  const absolute = (value.endsWith('.') ? value : `${value}.`).toLowerCase();
  if (absolute.length > NAME_MAX + 1) return null;
  if (!absolute.endsWith('.in-addr.arpa.') && !absolute.endsWith('.ip6.arpa.')) return null;
  const labels = absolute.slice(0, -1).split('.');
  return labels.every((label) => LABEL.test(label)) ? absolute : null;
}

/** The PTR owner name of an address (as PostgreSQL's `host()` writes it): `10.2.0.192.in-addr.arpa.`, or 32 nibbles under `ip6.arpa.`. */
export function ptrName(address: string): string {
  if (address.includes(':')) return `${expandIpv6(address).split('').reverse().join('.')}.ip6.arpa.`;
  return `${address.split('.').reverse().join('.')}.in-addr.arpa.`;
}

/** The address a full PTR owner name stands for, or null (a delegation, a zone apex, anything else). */
export function addressOfPtrName(name: string): string | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.in-addr.arpa.')) {
    const octets = lower.slice(0, -'.in-addr.arpa.'.length).split('.');
    if (octets.length !== 4 || !octets.every((o) => /^(?:0|[1-9]\d{0,2})$/.test(o) && Number(o) <= 255))
      return null;
    return octets.reverse().join('.');
  }
  if (lower.endsWith('.ip6.arpa.')) {
    const nibbles = lower.slice(0, -'.ip6.arpa.'.length).split('.');
    if (nibbles.length !== 32 || !nibbles.every((n) => /^[0-9a-f]$/.test(n))) return null;
    const hex = nibbles.reverse().join('');
    return compressIpv6(hex);
  }
  return null;
}

/** The most specific of `zones` that holds `name`, or null. */
export function zoneOf(name: string, zones: readonly string[]): string | null {
  let found: string | null = null;
  for (const zone of zones)
    if ((name === zone || name.endsWith(`.${zone}`)) && (found === null || zone.length > found.length))
      found = zone;
  return found;
}

/** A name in the absolute form a PTR record's content takes: `mail.example.com.`. */
export const absoluteName = (name: string) => (name.endsWith('.') ? name : `${name}.`).toLowerCase();

/** 32 hex digits, every group written out. */
function expandIpv6(address: string): string {
  let text = address.toLowerCase();
  // An embedded IPv4 tail (::ffff:192.0.2.1) as two groups.
  const v4 = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = tail === undefined ? left : [...left, ...Array(missing).fill('0'), ...right];
  return groups.map((g) => g.padStart(4, '0')).join('');
}

/** RFC 5952 text of 32 hex digits, as PostgreSQL's `host()` writes an address. */
function compressIpv6(hex: string): string {
  const groups = Array.from({ length: 8 }, (_, i) =>
    Number.parseInt(hex.slice(i * 4, i * 4 + 4), 16).toString(16),
  );
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(':');
  const left = groups.slice(0, best.start).join(':');
  const right = groups.slice(best.start + best.length).join(':');
  return `${left}::${right}`;
}
