import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { type Body, bearer, json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/** Through a listening server: the limits are about what is read from the socket. */
let server: Stack;
let appKey: string;

beforeAll(async () => {
  server = await startStack({ listen: true });
  appKey = server.admin.key;
});
afterAll(() => server.close());

const ENROLL = '/api/cloudsvc/agent/enroll';

interface Sent {
  readonly status: number;
  readonly body: Body;
  readonly connection: string | undefined;
  /** Body bytes written before the answer arrived. */
  readonly sentBytes: number;
}

/**
 * Streams a body of `total` bytes in `chunk`-byte pieces, pausing between them, and stops
 * writing as soon as the answer arrives. Without `declareLength` the body is chunked. With
 * `holdBody`, only the headers go: the body waits for an answer, which must come without it.
 */
function stream(
  path: string,
  options: {
    total: number;
    chunk: number;
    declareLength?: boolean;
    holdBody?: boolean;
    headers?: Record<string, string>;
  },
): Promise<Sent> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(options.declareLength ? { 'Content-Length': String(options.total) } : {}),
        ...options.headers,
      },
    });
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      const sentAtAnswer = sentBytes;
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        req.destroy();
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(parts).toString('utf8')),
          connection: res.headers.connection,
          sentBytes: sentAtAnswer,
        });
      });
    });
    // The server may close the connection once it has answered; that is not a failure here.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.flushHeaders();
    const piece = Buffer.alloc(options.chunk, 'a');
    piece[0] = '['.charCodeAt(0);
    const pump = async () => {
      if (options.holdBody) return;
      while (!answered && sentBytes < options.total) {
        req.write(piece);
        sentBytes += piece.length;
        await new Promise((r) => setTimeout(r, 2));
      }
      if (!answered) req.end();
    };
    void pump();
  });
}

async function enrollmentToken() {
  const hypervisor = await seed.hypervisor(server.deps.db);
  const token = await createCredential(server.deps.db, {
    type: 'enrollment',
    hypervisorId: hypervisor.id,
    expiresAt: new Date(Date.now() + 60_000),
  });
  return { hypervisor, token: token.token };
}

async function tokenUnused(hypervisorId: string): Promise<boolean> {
  const row = await server.deps.db
    .selectFrom('credentials')
    .select(['used_at'])
    .where('hypervisor_id', '=', hypervisorId)
    .where('type', '=', 'enrollment')
    .executeTakeFirstOrThrow();
  return row.used_at === null;
}

function expect413(sent: Sent, limit: number) {
  expect(sent.status).toBe(413);
  expect(sent.body).toMatchObject({ errors: [{ code: 'SVC-REQ-413', status: 413 }] });
  expect(sent.body.errors[0].detail).toContain(String(limit));
  expect(sent.body.support_id).toMatch(/^sup_/);
  // The unread rest of the body makes the connection unusable for a next request.
  expect(sent.connection).toBe('close');
}

describe('the body limit of the unauthenticated enroll route', () => {
  it('refuses a declared 50 MB body before reading it', async () => {
    const { hypervisor } = await enrollmentToken();
    // Only the headers are sent: the answer comes from the declared length alone, not a byte read.
    const sent = await stream(ENROLL, {
      total: 50 * 1024 * 1024,
      chunk: 64 * 1024,
      declareLength: true,
      holdBody: true,
    });
    expect413(sent, server.config.UNAUTHENTICATED_BODY_LIMIT_BYTES);
    expect(sent.sentBytes).toBe(0);
    expect(await tokenUnused(hypervisor.id)).toBe(true);
  });

  it('stops reading a chunked body as soon as it passes the limit', async () => {
    const { hypervisor } = await enrollmentToken();
    const sent = await stream(ENROLL, { total: 50 * 1024 * 1024, chunk: 1024 });
    expect413(sent, server.config.UNAUTHENTICATED_BODY_LIMIT_BYTES);
    // 4 KiB limit, 1 KiB pieces: the answer comes after a handful, far from the 50 MB offered.
    expect(sent.sentBytes).toBeLessThan(256 * 1024);
    expect(await tokenUnused(hypervisor.id)).toBe(true);
  });

  it('still takes a body within the limit', async () => {
    const { hypervisor, token } = await enrollmentToken();
    const res = await fetch(new URL(ENROLL, server.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, agent_version: '1.0.0' }),
    });
    expect(res.status).toBe(201);
    expect(await tokenUnused(hypervisor.id)).toBe(false);
  });
});

describe('the body limit of authenticated routes', () => {
  const limit = () => server.config.BODY_LIMIT_BYTES;

  it('refuses a larger declared body with 413 and changes nothing', async () => {
    const hypervisor = await seed.hypervisor(server.deps.db);
    const path = `/api/application/cloudsvc/hypervisors/${hypervisor.id}`;
    const padding = 'x'.repeat(limit());
    const res = await fetch(new URL(path, server.url), {
      method: 'PATCH',
      headers: { ...bearer(appKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'renamed', padding }),
    });
    expect(res.status).toBe(413);
    expect((await json(res)).errors[0].code).toBe('SVC-REQ-413');
    expect((await findHypervisor(server.deps.db, hypervisor.id))?.name).toBe(hypervisor.name);
  });

  it('stops reading a chunked body once it passes the limit', async () => {
    const hypervisor = await seed.hypervisor(server.deps.db);
    const sent = await stream(`/api/application/cloudsvc/hypervisors/${hypervisor.id}/maintenance`, {
      total: 50 * 1024 * 1024,
      chunk: 64 * 1024,
      headers: bearer(appKey),
    });
    expect413(sent, limit());
    expect(sent.sentBytes).toBeLessThan(limit() + 4 * 1024 * 1024);
    expect((await findHypervisor(server.deps.db, hypervisor.id))?.maintenance).toBe(false);
  });

  it('reads nothing of the body of a caller without a credential', async () => {
    const hypervisor = await seed.hypervisor(server.deps.db);
    const sent = await stream(`/api/application/cloudsvc/hypervisors/${hypervisor.id}/maintenance`, {
      total: 50 * 1024 * 1024,
      chunk: 64 * 1024,
    });
    expect(sent.status).toBe(401);
    expect(sent.sentBytes).toBeLessThan(limit());
  });
});

describe('the OpenAPI documents', () => {
  it('describe the 413 of each limit', async () => {
    const agent = await json(await fetch(new URL('/openapi/agent.json', server.url)));
    expect(agent.paths['/enroll'].post.responses['413'].description).toContain(
      'UNAUTHENTICATED_BODY_LIMIT_BYTES',
    );
    expect(agent.paths['/heartbeat'].post.responses['413'].description).toContain('BODY_LIMIT_BYTES');
    const application = await json(await fetch(new URL('/openapi/application.json', server.url)));
    expect(application.paths['/hypervisors'].post.responses['413'].description).toContain('BODY_LIMIT_BYTES');
  });
});
