import { createSocket } from 'node:dgram';
import { isIP, Socket } from 'node:net';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../../domain/providers.js';

/** Where an RFC 2136 server listens: an address (or host name) and a port. */
export interface DnsServerAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * One DNS message over UDP and the first datagram back whose id matches, or null when none came
 * within the time limit (or the socket failed). Answers from elsewhere are ignored.
 */
export function exchangeUdp(server: DnsServerAddress, message: Buffer): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const socket = createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
    const id = message.readUInt16BE(0);
    const done = (answer: Buffer | null) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer);
    };
    const timer = setTimeout(() => done(null), PROVIDER_CALL_TIMEOUT_MS);
    socket.on('error', () => done(null));
    socket.on('message', (answer) => {
      if (answer.length >= 12 && answer.length <= 65535 && answer.readUInt16BE(0) === id) done(answer);
    });
    socket.send(message, server.port, server.host, (error) => {
      if (error) done(null);
    });
  });
}

/** One DNS message over TCP (RFC 1035 §4.2.2, a length before each) and its answer, or null. */
export function exchangeTcp(
  server: DnsServerAddress,
  message: Buffer,
  maxBytes: number,
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let received = Buffer.alloc(0);
    const done = (answer: Buffer | null) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(PROVIDER_CALL_TIMEOUT_MS, () => done(null));
    socket.on('error', () => done(null));
    socket.on('close', () => done(null));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length > maxBytes + 2) return done(null);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0))
        done(received.subarray(2, 2 + received.readUInt16BE(0)));
    });
    socket.connect(server.port, server.host, () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length, 0);
      socket.write(Buffer.concat([length, message]));
    });
  });
}

/**
 * A request over TCP whose answer is a stream of messages (a zone transfer, RFC 5936 §2.2), each
 * after its length: `take` is given each message and says whether more are to come. True once it
 * said no more, false when the stream ended, broke, went past `maxBytes` in all, or the time
 * limit passed between two messages.
 */
export function streamTcp(
  server: DnsServerAddress,
  message: Buffer,
  maxBytes: number,
  take: (answer: Buffer) => 'more' | 'done',
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let received = Buffer.alloc(0);
    let total = 0;
    const done = (complete: boolean) => {
      socket.destroy();
      resolve(complete);
    };
    socket.setTimeout(PROVIDER_CALL_TIMEOUT_MS, () => done(false));
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
    socket.on('data', (chunk) => {
      total += chunk.length;
      if (total > maxBytes) return done(false);
      received = Buffer.concat([received, chunk]);
      while (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        const length = received.readUInt16BE(0);
        const answer = received.subarray(2, 2 + length);
        received = received.subarray(2 + length);
        if (take(answer) === 'done') return done(true);
      }
    });
    socket.connect(server.port, server.host, () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length, 0);
      socket.write(Buffer.concat([length, message]));
    });
  });
}
