import { randomInt } from 'node:crypto';
import * as packet from 'dns-packet';
import type { TsigKey } from '../../../domain/dns/tsig-keys.js';
import { type DnsAnswer, type DnsFailure, dnsFailure, type PtrContents } from '../driver.js';
import { type DnsServerAddress, streamTcp } from './transport.js';
import { signRequest } from './tsig.js';
import { type CheckedAnswer, checkAnswer, keyRefused } from './tsig-answer.js';
import { checkFollowing } from './tsig-transfer.js';
import { CLASS_IN, encodeHeader, encodeName, RCODE } from './wire.js';

const TYPE_AXFR = 252;
/** A reverse zone's transfer, bounded: a /16's worth of PTR records is a few megabytes. */
const TRANSFER_MAX_BYTES = 64 * 1024 * 1024;
/** RFC 8945 §5.3.1: a transfer signs at least every hundredth message. */
const MAX_UNSIGNED_RUN = 99;

/**
 * Every PTR rrset of `zone`, by a zone transfer (AXFR, RFC 5936) over TCP signed with the
 * provider's key, its answer's messages each checked against the key (the first over the request's
 * MAC, each later one over the MAC before it) and the last one signed: a listing that is not the
 * key holder's is not believed, since a resync deletes what it lists that the panel does not hold.
 * The server's refusal (its `allow-axfr-ips`, the zone's `TSIG-ALLOW-AXFR`) is `rejected`, or
 * `unauthorized` when the key was not taken.
 */
export async function transferPtrRecords(
  server: { readonly address: DnsServerAddress; readonly key: TsigKey },
  zone: string,
): Promise<DnsAnswer<{ ptrs: PtrContents }>> {
  const id = randomInt(0, 0x10000);
  const question = Buffer.concat([encodeName(zone), Buffer.from([0, TYPE_AXFR, 0, CLASS_IN])]);
  const { signed, mac } = signRequest(
    Buffer.concat([encodeHeader(id, 0, [1, 0, 0, 0]), question]),
    server.key,
  );
  const ptrs: PtrContents = new Map();
  let failure: DnsFailure | null = null;
  let priorMac: Buffer | null = null;
  let unsignedSince: Buffer[] = [];
  let soas = 0;

  const take = (message: Buffer): 'more' | 'done' => {
    const stop = (why: DnsFailure) => {
      failure = why;
      return 'done' as const;
    };
    if (message.length < 12 || message.readUInt16BE(0) !== id || (message.readUInt16BE(2) & 0x8000) === 0)
      return stop(dnsFailure('bad_answer'));
    const checked: CheckedAnswer =
      priorMac === null
        ? checkAnswer(message, mac, server.key)
        : checkFollowing(message, priorMac, unsignedSince, server.key);
    const rcode = message.readUInt16BE(2) & 0xf;
    if (rcode !== RCODE.NOERROR)
      return stop(dnsFailure(keyRefused(rcode, checked) ? 'unauthorized' : 'rejected'));
    if (checked.signature === 'forged') return stop(dnsFailure('bad_answer'));
    if (checked.mac !== null) {
      priorMac = checked.mac;
      unsignedSince = [];
    } else if (priorMac === null || unsignedSince.length >= MAX_UNSIGNED_RUN)
      return stop(dnsFailure('bad_answer'));
    else unsignedSince.push(message);

    let answers: packet.Answer[];
    try {
      answers = packet.decode(message).answers ?? [];
    } catch {
      return stop(dnsFailure('bad_answer'));
    }
    for (const record of answers) {
      const owner = `${record.name.toLowerCase()}.`;
      // The transfer begins and ends with the zone's SOA (RFC 5936 §2.2).
      if (record.type === 'SOA' && owner === zone) soas += 1;
      else if (soas === 0) return stop(dnsFailure('bad_answer'));
      else if (record.type === 'PTR')
        ptrs.set(owner, [...(ptrs.get(owner) ?? []), `${String(record.data).toLowerCase()}.`]);
    }
    if (soas < 2) return 'more';
    return checked.mac !== null ? 'done' : stop(dnsFailure('bad_answer'));
  };

  const complete = await streamTcp(server.address, signed, TRANSFER_MAX_BYTES, take);
  if (failure !== null) return failure;
  return complete ? { ok: true, ptrs } : dnsFailure('unreachable');
}
