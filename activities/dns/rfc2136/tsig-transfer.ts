import type { TsigKey } from '../../../domain/dns/tsig-keys.js';
import { hmac, readSignature, sizedMac } from './tsig.js';
import { type CheckedAnswer, forged, genuine } from './tsig-answer.js';

// The signatures of a zone transfer's later messages (RFC 8945 §5.3.1); its first message is
// checked as any answer is (tsig.ts).

/**
 * A later message of a zone transfer (RFC 8945 §5.3.1): signed over the prior MAC, the messages
 * since it that came unsigned, this message and the timers only. Unsigned is allowed between
 * signed ones; the caller bounds how many and wants the last one signed.
 */
export function checkFollowing(
  message: Buffer,
  priorMac: Buffer,
  unsignedSince: readonly Buffer[],
  key: TsigKey,
): CheckedAnswer {
  try {
    const tsig = readSignature(message);
    if (tsig === null || tsig.mac.length === 0)
      return { signature: 'unsigned', error: tsig?.error ?? 0, mac: null };
    if (tsig.owner !== key.name || tsig.algorithm !== key.algorithm)
      return { signature: 'forged', error: tsig.error, mac: null };
    const timers = Buffer.alloc(8);
    timers.writeUIntBE(tsig.timeSigned, 0, 6);
    timers.writeUInt16BE(tsig.fudge, 6);
    const expected = hmac(key, [sizedMac(priorMac), ...unsignedSince, tsig.unsigned, timers]);
    return genuine(expected, tsig.mac) ? { signature: 'signed', error: tsig.error, mac: tsig.mac } : forged;
  } catch {
    return forged;
  }
}
