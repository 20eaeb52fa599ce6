// The few pieces of the DNS wire format (RFC 1035 §4) that an UPDATE and its TSIG need written by
// hand: dns-packet encodes queries and decodes answers, but writes neither a delete-rrset record
// (class ANY, no RDATA) nor class NONE, and gives no offsets to find a signature at.

export const TYPE_SOA = 6;
export const TYPE_PTR = 12;
export const TYPE_TSIG = 250;
export const CLASS_IN = 1;
export const CLASS_ANY = 255;
export const OPCODE_UPDATE = 5;

/** RCODEs this driver tells apart (RFC 1035, RFC 2136 §2.2, RFC 8945 §5.3). */
export const RCODE = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  NOTAUTH: 9,
  NOTZONE: 10,
} as const;

/** A name in canonical wire form: lower case, uncompressed, ending in the root label. */
export function encodeName(name: string): Buffer {
  const labels = name
    .toLowerCase()
    .replace(/\.$/, '')
    .split('.')
    .filter((l) => l.length > 0);
  const parts: Buffer[] = [];
  for (const label of labels) {
    const bytes = Buffer.from(label, 'ascii');
    if (bytes.length > 63) throw new RangeError('a DNS label is at most 63 bytes');
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** One resource record, its RDATA already in wire form. */
export function encodeRecord(record: {
  name: string;
  type: number;
  klass: number;
  ttl: number;
  rdata: Buffer;
}): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(record.type, 0);
  fixed.writeUInt16BE(record.klass, 2);
  fixed.writeUInt32BE(record.ttl, 4);
  fixed.writeUInt16BE(record.rdata.length, 8);
  return Buffer.concat([encodeName(record.name), fixed, record.rdata]);
}

/** The header of a message: id, flags and the four section counts. */
export function encodeHeader(id: number, flags: number, counts: [number, number, number, number]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(flags, 2);
  for (const [i, count] of counts.entries()) header.writeUInt16BE(count, 4 + 2 * i);
  return header;
}

/** The offset just past the (possibly compressed) name at `offset`; throws past the end. */
function skipName(message: Buffer, offset: number): number {
  for (let at = offset; ; ) {
    const length = message.readUInt8(at);
    if (length === 0) return at + 1;
    if ((length & 0xc0) === 0xc0) {
      message.readUInt8(at + 1);
      return at + 2;
    }
    at += 1 + length;
  }
}

/**
 * Where the message's last additional record begins (where a TSIG record sits), or null when the
 * message has none or is cut short.
 */
export function lastAdditionalOffset(message: Buffer): number | null {
  try {
    const [qd, an, ns, ar] = [4, 6, 8, 10].map((at) => message.readUInt16BE(at)) as [
      number,
      number,
      number,
      number,
    ];
    if (ar === 0) return null;
    let at = 12;
    for (let i = 0; i < qd; i++) at = skipName(message, at) + 4;
    for (let i = 0; i < an + ns + ar - 1; i++) {
      at = skipName(message, at) + 8;
      at += 2 + message.readUInt16BE(at);
    }
    return at < message.length ? at : null;
  } catch {
    return null;
  }
}

/** A name read (uncompressed, as TSIG writes its own) at `offset`: the name and the offset past it. */
export function readPlainName(message: Buffer, offset: number): { name: string; next: number } {
  const labels: string[] = [];
  let at = offset;
  for (;;) {
    const length = message.readUInt8(at);
    if (length === 0) return { name: `${labels.join('.')}.`.toLowerCase(), next: at + 1 };
    if ((length & 0xc0) !== 0) throw new RangeError('a compressed name where none may be');
    labels.push(message.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
}
