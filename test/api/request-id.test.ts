import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_ID_BYTES } from '../../api/middleware/request-id.js';
import { createLogger } from '../../platform/logger.js';
import { KEYS } from '../client/ssh-key-fixtures.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * SPEC.md §1 convention 3: a caller's `X-Request-Id` is reused as the correlation id, whatever it
 * holds, sent over a real socket byte for byte as a client would; what it becomes in the answer's
 * header, in the log lines and in the database.
 */
let t: Stack;
const lines: string[] = [];

beforeAll(async () => {
  t = await startStack({ listen: true, logger: createLogger('info', {}, (line) => lines.push(line)) });
});
afterAll(() => t.close());

interface RawReply {
  readonly status: number;
  readonly requestId: string | undefined;
  readonly head: string;
}

/** One request whose X-Request-Id is `value`'s bytes exactly, and the answer's status and header. */
function sendRaw(value: Buffer, path = '/api/client/cloud', body?: string): Promise<RawReply> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const parts: Buffer[] = [];
    socket.on('data', (part) => parts.push(part));
    socket.on('error', reject);
    socket.on('close', () => {
      const head = Buffer.concat(parts).toString('latin1').split('\r\n\r\n')[0]!;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const requestId = /^x-request-id: (.*)$/im.exec(head)?.[1];
      resolve({ status, requestId, head });
    });
    const bodyHeaders = body
      ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      : '';
    socket.write(
      Buffer.concat([
        Buffer.from(
          `${body ? 'POST' : 'GET'} ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n` +
            `Authorization: Bearer ${t.client.key}\r\n${bodyHeaders}X-Request-Id: `,
        ),
        value,
        Buffer.from(`\r\n\r\n${body ?? ''}`),
      ]),
    );
  });
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const logged = (requestId: string) =>
  lines.map((l) => JSON.parse(l)).filter((r) => r.request_id === requestId);

describe('X-Request-Id', () => {
  it('keeps printable ASCII as sent, spaces and quotes included, and echoes it unchanged', async () => {
    for (const value of [
      'req-42',
      'order 7 / "retry" 2',
      `it's {a} <b> \\ %41`,
      'x'.repeat(MAX_REQUEST_ID_BYTES),
    ]) {
      const reply = await sendRaw(utf8(value));
      expect(reply.status).toBe(200);
      expect(reply.requestId).toBe(value);
    }
  });

  it('keeps a UTF-8 value as text and echoes its bytes percent-encoded, % included', async () => {
    const value = 'commande-é ✓ 100%';
    const reply = await sendRaw(utf8(value));
    expect(reply.status).toBe(200);
    expect(reply.requestId).toBe('commande-%C3%A9 %E2%9C%93 100%25');
    expect(decodeURIComponent(reply.requestId!)).toBe(value);
  });

  it('writes an odd value into the log as JSON-escaped text, once per line of the request', async () => {
    const value = 'a "quoted" \\ value é';
    const reply = await sendRaw(utf8(value), '/api/client/cloud/not-a-uuid');
    expect(reply.status).toBe(404);
    const records = logged(value);
    expect(records.map((r) => r.msg)).toContain('request refused');
    // Every line is one JSON object: the quotes and backslash cannot end it or start another.
    expect(lines.every((l) => !l.trimEnd().includes('\n') && typeof JSON.parse(l) === 'object')).toBe(true);
  });

  it('keeps a tab and bytes that are not UTF-8 percent-encoded, in the header and as the id', async () => {
    const tabbed = await sendRaw(utf8('a\tb'), '/api/client/cloud/not-a-uuid');
    expect(tabbed.requestId).toBe('a%09b');
    expect(logged('a\tb').length).toBeGreaterThan(0);
    const latin1 = await sendRaw(Buffer.from([0x61, 0xe9, 0x62]));
    expect(latin1.requestId).toBe('a%E9b');
  });

  it('is the correlation id of what the request records, UTF-8 kept', async () => {
    const value = `clé-${Date.now()}`;
    const body = JSON.stringify({ name: `k-${Date.now()}`, public_key: KEYS.ed25519.line });
    const reply = await sendRaw(utf8(value), '/api/client/cloud/ssh-keys', body);
    expect(reply.status).toBe(201);
    const recorded = await t.db
      .selectFrom('activity_log')
      .select('correlation_id')
      .where('correlation_id', '=', value)
      .execute();
    expect(recorded).toHaveLength(1);
  });

  it('replaces a value longer than the bound with a generated id, and says so in the log', async () => {
    const long = 'y'.repeat(MAX_REQUEST_ID_BYTES + 1);
    const reply = await sendRaw(utf8(long));
    expect(reply.status).toBe(200);
    expect(reply.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const [setAside] = logged(reply.requestId!);
    expect(setAside).toMatchObject({
      msg: 'X-Request-Id set aside',
      offered_bytes: MAX_REQUEST_ID_BYTES + 1,
    });
    expect(lines.some((l) => l.includes(long))).toBe(false);
    // The bound counts bytes: 67 three-byte characters are 201.
    const wide = await sendRaw(utf8('✓'.repeat(67)));
    expect(wide.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('cannot add a header or split the answer with a CR or LF', async () => {
    // CRLF ends the header (what follows is another request header, not ours); a lone CR or LF in
    // a value is refused by Node's HTTP parser before the API sees the request.
    for (const attempt of ['a\r\nSet-Cookie: x=1', 'a\nSet-Cookie: x=1', 'a\rSet-Cookie: x=1']) {
      const reply = await sendRaw(utf8(attempt));
      expect([200, 400]).toContain(reply.status);
      expect(reply.head).not.toMatch(/set-cookie/i);
      if (reply.status === 200) expect(reply.requestId).toBe('a');
    }
  });

  it('is generated when absent or empty, and each answer has exactly one', async () => {
    const reply = await sendRaw(utf8(''));
    expect(reply.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.head.match(/^x-request-id:/gim)).toHaveLength(1);
  });
});
