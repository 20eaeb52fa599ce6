import { createHmac } from 'node:crypto';
import type { TsigKey } from '../../../domain/dns/tsig-keys.js';
import {
  CLASS_ANY,
  encodeName,
  encodeRecord,
  lastAdditionalOffset,
  readPlainName,
  TYPE_TSIG,
} from './wire.js';

// Transaction signatures by RFC 8945: a request signed with the provider's key (HMAC over the
// message and the TSIG variables), and a signed message's TSIG record read back (the answer's
// check is tsig-answer.ts).

/** How far apart the two clocks may be, in seconds (RFC 8945 §5.2.3 recommends 300). */
const FUDGE_SECONDS = 300;

/** The TSIG variables of §4.3.3, in the order the MAC covers them. */
export function variables(
  key: TsigKey,
  timeSigned: number,
  fudge: number,
  error: number,
  other: Buffer,
): Buffer {
  const classAndTtl = Buffer.alloc(6);
  classAndTtl.writeUInt16BE(CLASS_ANY, 0); // the TTL, 0, follows
  const time = Buffer.alloc(10);
  time.writeUIntBE(timeSigned, 0, 6);
  time.writeUInt16BE(fudge, 6);
  time.writeUInt16BE(error, 8);
  const otherLength = Buffer.alloc(2);
  otherLength.writeUInt16BE(other.length, 0);
  return Buffer.concat([
    encodeName(key.name),
    classAndTtl,
    encodeName(key.algorithm),
    time,
    otherLength,
    other,
  ]);
}

export const hmac = (key: TsigKey, parts: Buffer[]) => {
  const mac = createHmac(key.algorithm === 'hmac-sha512.' ? 'sha512' : 'sha256', key.secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** `message` (its id and counts final) with a TSIG record appended: the signed message and its MAC. */
export function signRequest(
  message: Buffer,
  key: TsigKey,
  now = Date.now(),
): { signed: Buffer; mac: Buffer } {
  const timeSigned = Math.floor(now / 1000);
  const mac = hmac(key, [message, variables(key, timeSigned, FUDGE_SECONDS, 0, Buffer.alloc(0))]);
  const rdata = Buffer.alloc(6 + 2 + 2);
  rdata.writeUIntBE(timeSigned, 0, 6);
  rdata.writeUInt16BE(FUDGE_SECONDS, 6);
  rdata.writeUInt16BE(mac.length, 8);
  const tail = Buffer.alloc(6);
  tail.writeUInt16BE(message.readUInt16BE(0), 0); // original id
  // error 0 and other length 0 follow, already zero.
  const record = encodeRecord({
    name: key.name,
    type: TYPE_TSIG,
    klass: CLASS_ANY,
    ttl: 0,
    rdata: Buffer.concat([encodeName(key.algorithm), rdata, mac, tail]),
  });
  const signed = Buffer.concat([message, record]);
  signed.writeUInt16BE(message.readUInt16BE(10) + 1, 10);
  return { signed, mac };
}

/** A TSIG record at the end of a message, read; null when the last record is not one. */
export function readSignature(message: Buffer) {
  const at = lastAdditionalOffset(message);
  if (at === null) return null;
  const owner = readPlainName(message, at);
  if (message.readUInt16BE(owner.next) !== TYPE_TSIG) return null;
  const algorithm = readPlainName(message, owner.next + 10);
  const p = algorithm.next;
  const macSize = message.readUInt16BE(p + 8);
  const after = p + 10 + macSize;
  // The message as it was before its TSIG record was added: the original id, one record fewer.
  const unsigned = Buffer.from(message.subarray(0, at));
  unsigned.writeUInt16BE(message.readUInt16BE(after), 0);
  unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10);
  return {
    owner: owner.name,
    algorithm: algorithm.name,
    timeSigned: message.readUIntBE(p, 6),
    fudge: message.readUInt16BE(p + 6),
    mac: message.subarray(p + 10, after),
    error: message.readUInt16BE(after + 2),
    other: message.subarray(after + 6, after + 6 + message.readUInt16BE(after + 4)),
    unsigned,
  };
}

export const sizedMac = (mac: Buffer) => {
  const size = Buffer.alloc(2);
  size.writeUInt16BE(mac.length, 0);
  return Buffer.concat([size, mac]);
};
