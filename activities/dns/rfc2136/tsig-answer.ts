import { timingSafeEqual } from 'node:crypto';
import type { TsigKey } from '../../../domain/dns/tsig-keys.js';
import { hmac, readSignature, sizedMac, variables } from './tsig.js';
import { RCODE } from './wire.js';

// An answer's transaction signature (RFC 8945), checked over the request's MAC, the answer and
// its variables, so an answer that did not come from the key's holder is not believed.

export interface CheckedAnswer {
  readonly signature: 'signed' | 'unsigned' | 'forged';
  readonly error: number;
  /** The answer's MAC when signed: what the next message of a zone transfer is signed over. */
  readonly mac: Buffer | null;
}

/**
 * What the answer's signature says: `signed` (made with the key, over this request), `unsigned`
 * (no TSIG record, or one with no MAC, as a server sends with BADKEY or BADSIG), or `forged`.
 * `error` is the TSIG error the server put in its record (16 BADSIG, 17 BADKEY, 18 BADTIME).
 */
export function checkAnswer(answer: Buffer, requestMac: Buffer, key: TsigKey): CheckedAnswer {
  try {
    const tsig = readSignature(answer);
    if (tsig === null) return { signature: 'unsigned', error: 0, mac: null };
    if (tsig.mac.length === 0) return { signature: 'unsigned', error: tsig.error, mac: null };
    if (tsig.owner !== key.name || tsig.algorithm !== key.algorithm)
      return { signature: 'forged', error: tsig.error, mac: null };
    const expected = hmac(key, [
      sizedMac(requestMac),
      tsig.unsigned,
      variables(key, tsig.timeSigned, tsig.fudge, tsig.error, tsig.other),
    ]);
    return genuine(expected, tsig.mac) ? { signature: 'signed', error: tsig.error, mac: tsig.mac } : forged;
  } catch {
    return forged;
  }
}

export const forged: CheckedAnswer = { signature: 'forged', error: 0, mac: null };
export const genuine = (expected: Buffer, mac: Buffer) =>
  expected.length === mac.length && timingSafeEqual(expected, mac);

/**
 * The server did not take the key (unknown, wrong secret, clock): NOTAUTH with a TSIG error by
 * RFC 8945, or, as PowerDNS 4.7 answers, an unsigned REFUSED. A REFUSED the key's holder signed is
 * the server's policy (allow-dnsupdate-from, the zone's TSIG-ALLOW-DNSUPDATE), not the key.
 */
export function keyRefused(rcode: number, checked: CheckedAnswer): boolean {
  return (
    rcode === RCODE.NOTAUTH ||
    checked.error !== 0 ||
    (rcode === RCODE.REFUSED && checked.signature !== 'signed')
  );
}
