import { describe, expect, it } from 'vitest';
import {
  addressOfPtrName,
  canonicalReverseZone,
  ptrName,
  RDNS_FAILURES,
  rdnsFailureDetail,
  zoneOf,
} from '../../domain/dns/reverse-zones.js';

describe('reverse DNS names and zones', () => {
  it('names an address’s PTR record, IPv4 by octets and IPv6 by nibbles, and reads it back', () => {
    expect(ptrName('192.0.2.10')).toBe('10.2.0.192.in-addr.arpa.');
    expect(ptrName('2001:db8::1')).toBe(
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.',
    );
    expect(ptrName('::ffff:192.0.2.1')).toBe(
      '1.0.2.0.0.0.0.c.f.f.f.f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa.',
    );
    for (const address of [
      '192.0.2.10',
      '2001:db8::1',
      'fd12:3456:789a:1::42',
      '2001:db8:0:1:1:1:1:1',
      '::1',
    ])
      expect(addressOfPtrName(ptrName(address))).toBe(address);
    expect(addressOfPtrName('2.0.192.in-addr.arpa.')).toBeNull();
    expect(addressOfPtrName('300.2.0.192.in-addr.arpa.')).toBeNull();
    expect(addressOfPtrName('01.2.0.192.in-addr.arpa.')).toBeNull();
    expect(addressOfPtrName('mail.example.com.')).toBeNull();
  });

  it('keeps reverse zones lower case and absolute, and refuses other names', () => {
    expect(canonicalReverseZone('2.0.192.IN-ADDR.ARPA')).toBe('2.0.192.in-addr.arpa.');
    expect(canonicalReverseZone('8.b.d.0.1.0.0.2.ip6.arpa.')).toBe('8.b.d.0.1.0.0.2.ip6.arpa.');
    for (const bad of [
      'example.com.',
      'in-addr.arpa.',
      'a_b.in-addr.arpa.',
      '..in-addr.arpa.',
      '',
      'x'.repeat(260),
    ])
      expect(canonicalReverseZone(bad), bad).toBeNull();
  });

  it('puts a name in the most specific zone that holds it, and in none outside them', () => {
    const zones = ['0.192.in-addr.arpa.', '2.0.192.in-addr.arpa.', '8.b.d.0.1.0.0.2.ip6.arpa.'];
    expect(zoneOf(ptrName('192.0.2.10'), zones)).toBe('2.0.192.in-addr.arpa.');
    expect(zoneOf(ptrName('192.0.3.10'), zones)).toBe('0.192.in-addr.arpa.');
    expect(zoneOf(ptrName('2001:db8::5'), zones)).toBe('8.b.d.0.1.0.0.2.ip6.arpa.');
    expect(zoneOf(ptrName('198.51.100.1'), zones)).toBeNull();
    // A label boundary, not a suffix of text: 12.0.192… is not in 2.0.192….
    expect(zoneOf('1.12.0.193.in-addr.arpa.', ['2.0.193.in-addr.arpa.'])).toBeNull();
  });

  it('tells every failure in a sentence with the HTTP status at most', () => {
    for (const failure of RDNS_FAILURES) expect(rdnsFailureDetail(failure, null)).toMatch(/\.$/);
    expect(rdnsFailureDetail('rejected', 422)).toBe('The DNS server refused the change (HTTP 422).');
  });
});
