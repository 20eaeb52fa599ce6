import { randomInt } from 'node:crypto';
import * as packet from 'dns-packet';
import { parseTsigKey, type TsigKey } from '../../../domain/dns/tsig-keys.js';
import { dnsServerOf } from '../../../domain/providers.js';
import { type DnsAnswer, type DnsDriver, type DnsFailure, dnsFailure, type PtrContents } from '../driver.js';
import { type DnsServerAddress, exchangeTcp, exchangeUdp } from './transport.js';
import { signRequest } from './tsig.js';
import { checkAnswer, keyRefused } from './tsig-answer.js';
import {
  CLASS_ANY,
  CLASS_IN,
  encodeHeader,
  encodeName,
  encodeRecord,
  OPCODE_UPDATE,
  RCODE,
  TYPE_PTR,
  TYPE_SOA,
} from './wire.js';
import { transferPtrRecords } from './zone-transfer.js';

/**
 * A DNS server taking RFC 2136 dynamic updates signed with a TSIG key (RFC 8945), as a DNS
 * provider: one UPDATE message per zone holds every change (a server applies an UPDATE whole or
 * not at all, §3.7), and what the server serves is read back with plain PTR queries, as a resolver
 * asks; a resync lists a zone by a signed zone transfer (zone-transfer.ts). The key signs; its secret never goes on the wire.
 */
export interface Rfc2136Server {
  readonly address: DnsServerAddress;
  readonly key: TsigKey;
}

/**
 * The server a provider's endpoint names, with the key its credential holds. A credential or
 * endpoint that cannot be used (stored before the rules, or changed behind the API) is a failure.
 */
export function rfc2136ServerOf(
  endpoint: string,
  credential: string,
): { server: Rfc2136Server } | { failure: DnsFailure } {
  const key = parseTsigKey(credential);
  const address = dnsServerOf(endpoint);
  if (!key.ok) return { failure: dnsFailure('no_credential') };
  if (address === null) return { failure: dnsFailure('unreachable') };
  return { server: { address, key: key.key } };
}

/** The most a message may be to go over UDP without EDNS (RFC 1035 §4.2.1); larger ones go over TCP. */
const UDP_LIMIT = 512;
const TCP_ANSWER_MAX = 65_535;

export function rfc2136Driver(server: Rfc2136Server): DnsDriver {
  const exchange = (message: Buffer) =>
    message.length > UDP_LIMIT
      ? exchangeTcp(server.address, message, TCP_ANSWER_MAX)
      : exchangeUdp(server.address, message);

  return {
    async changePtrRecords(zone, changes, ttl) {
      const updates = changes.flatMap((change) => [
        // Delete the name's PTR rrset (§2.5.2: class ANY, TTL 0, no RDATA), then add the one wanted.
        encodeRecord({ name: change.name, type: TYPE_PTR, klass: CLASS_ANY, ttl: 0, rdata: Buffer.alloc(0) }),
        ...(change.content === null
          ? []
          : [
              encodeRecord({
                name: change.name,
                type: TYPE_PTR,
                klass: CLASS_IN,
                ttl,
                rdata: encodeName(change.content),
              }),
            ]),
      ]);
      const zoneSection = Buffer.concat([encodeName(zone), Buffer.from([0, TYPE_SOA, 0, CLASS_IN])]);
      const message = Buffer.concat([
        encodeHeader(randomInt(0, 0x10000), OPCODE_UPDATE << 11, [1, 0, updates.length, 0]),
        zoneSection,
        ...updates,
      ]);
      const { signed, mac } = signRequest(message, server.key);
      const answer = await exchange(signed);
      if (answer === null) return dnsFailure('unreachable');
      return judgeUpdateAnswer(answer, signed, mac, server.key);
    },

    async servedPtrRecords(_zone, names) {
      const ptrs: PtrContents = new Map();
      for (const name of names) {
        const served = await queryPtr(server.address, name);
        if (!served.ok) return served;
        ptrs.set(name, served.contents);
      }
      return { ok: true, ptrs };
    },

    listPtrRecords: (zone) => transferPtrRecords(server, zone),
  };
}

/** What the server made of an UPDATE, from its answer's RCODE and signature. */
function judgeUpdateAnswer(
  answer: Buffer,
  request: Buffer,
  requestMac: Buffer,
  key: TsigKey,
): DnsAnswer<object> {
  const flags = answer.readUInt16BE(2);
  const isAnswer = (flags & 0x8000) !== 0 && ((flags >> 11) & 0xf) === OPCODE_UPDATE;
  if (!isAnswer || answer.readUInt16BE(0) !== request.readUInt16BE(0)) return dnsFailure('bad_answer');
  const rcode = flags & 0xf;
  const checked = checkAnswer(answer, requestMac, key);
  if (keyRefused(rcode, checked)) return dnsFailure('unauthorized');
  if (rcode !== RCODE.NOERROR) return dnsFailure('rejected');
  // A success only counts when the key's holder says so: an unsigned or forged one is not believed.
  return checked.signature === 'signed' ? { ok: true } : dnsFailure('bad_answer');
}

/** The PTR contents the server answers for `name` (absolute, lower case); none for NXDOMAIN. */
async function queryPtr(address: DnsServerAddress, name: string): Promise<DnsAnswer<{ contents: string[] }>> {
  const id = randomInt(0, 0x10000);
  const query = packet.encode({
    type: 'query',
    id,
    flags: 0,
    questions: [{ type: 'PTR', name: name.replace(/\.$/, '') }],
  });
  let raw = await exchangeUdp(address, query);
  if (raw === null) return dnsFailure('unreachable');
  let decoded: packet.Packet;
  try {
    decoded = packet.decode(raw);
    if ((decoded.flags ?? 0) & packet.TRUNCATED_RESPONSE) {
      raw = await exchangeTcp(address, query, TCP_ANSWER_MAX);
      if (raw === null) return dnsFailure('unreachable');
      decoded = packet.decode(raw);
    }
  } catch {
    return dnsFailure('bad_answer');
  }
  if (decoded.type !== 'response' || decoded.id !== id) return dnsFailure('bad_answer');
  const rcode = (decoded.flags ?? 0) & 0xf;
  if (rcode === RCODE.NXDOMAIN) return { ok: true, contents: [] };
  if (rcode !== RCODE.NOERROR) return dnsFailure('rejected');
  const owner = name.replace(/\.$/, '').toLowerCase();
  const contents = (decoded.answers ?? []).flatMap((a) =>
    a.type === 'PTR' && a.name.toLowerCase() === owner ? [`${String(a.data).toLowerCase()}.`] : [],
  );
  return { ok: true, contents };
}
