import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { hitRateLimit } from '../../db/repositories/accounts/rate-limits.js';
import { json } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let a: Stack;
let b: Stack;
let direct: Stack;

beforeAll(async () => {
  // Two API processes behind one proxy, sharing the database, and one reached directly.
  [a, b, direct] = await Promise.all([
    startStack({ config: { TRUST_PROXY_HOPS: '1', ENROLLMENT_RATE_LIMIT_PER_MINUTE: '5' } }),
    startStack({ config: { TRUST_PROXY_HOPS: '1', ENROLLMENT_RATE_LIMIT_PER_MINUTE: '5' } }),
    startStack({ config: { TRUST_PROXY_HOPS: '0', ENROLLMENT_RATE_LIMIT_PER_MINUTE: '2' } }),
  ]);
});
afterAll(() => Promise.all([a.close(), b.close(), direct.close()]));

/**
 * A documentation address of 203.0.113.0/24, which no other test enrolls from, and a new one at
 * each call. The run's tests share one rate-limit table: drawn at random from 198.51.100.0/24,
 * which the enrollment and log tests also enroll from, an address now and then came with
 * failures already counted against it.
 */
let lastIp = Math.floor(Math.random() * 200);
const someIp = () => `203.0.113.${(lastIp++ % 250) + 1}`;

const enroll = (t: Stack, forwardedFor: string | undefined, token = `cse_${randomUUID()}`) =>
  t.app.request('/api/cloudsvc/agent/enroll', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor }),
    },
    body: JSON.stringify({ token, agent_version: '1.0.0' }),
  });

describe('the enrollment rate limit', () => {
  it('holds across API processes: failures on either count against one limit', async () => {
    const ip = someIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await enroll(i % 2 === 0 ? a : b, ip)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await enroll(b, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await json(refused)).errors[0].code).toBe('SVC-REQ-429');
  });

  it('keys on the address the trusted proxy saw, not on what the client wrote before it', async () => {
    const ip = someIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await enroll(a, `10.0.0.${i}, ${randomUUID()}, ${ip}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await enroll(a, someIp())).status).not.toBe(429);
  });

  it('ignores X-Forwarded-For without trusted proxies', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await enroll(direct, someIp())).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('accepts a valid token from an address over its limit, and keeps refusing the failures there', async () => {
    const ip = someIp();
    for (let i = 0; i < 5; i++) expect((await enroll(a, ip)).status).toBe(401);
    expect((await enroll(a, ip)).status).toBe(429);
    const hypervisor = await seed.hypervisor(a.db);
    const token = await createCredential(a.db, {
      type: 'enrollment',
      hypervisorId: hypervisor.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await enroll(b, ip, token.token)).status).toBe(201);
    expect((await enroll(a, ip)).status).toBe(429);
    expect((await enroll(a, ip, token.token)).status).toBe(429);
  });

  it('does not count an enrollment that succeeds', async () => {
    const ip = someIp();
    for (let i = 0; i < 4; i++) expect((await enroll(a, ip)).status).toBe(401);
    for (let i = 0; i < 3; i++) {
      const hypervisor = await seed.hypervisor(a.db);
      const token = await createCredential(a.db, {
        type: 'enrollment',
        hypervisorId: hypervisor.id,
        expiresAt: new Date(Date.now() + 60_000),
      });
      expect((await enroll(i % 2 === 0 ? a : b, ip, token.token)).status).toBe(201);
    }
    expect((await enroll(a, ip)).status).toBe(401);
    expect((await enroll(a, ip)).status).toBe(429);
  });
});

describe('the rate-limit store', () => {
  it('counts concurrent hits exactly: no more than the limit get through', async () => {
    const key = `test:${randomUUID()}`;
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => hitRateLimit(a.db, { key, limit: 5, windowMs: 60_000 })),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
  });

  it('opens a new window when the last one ends', async () => {
    const key = `test:${randomUUID()}`;
    const limit = { key, limit: 1, windowMs: 300 };
    expect(await hitRateLimit(a.db, limit)).toMatchObject({ allowed: true });
    expect(await hitRateLimit(a.db, limit)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((r) => setTimeout(r, 400));
    expect(await hitRateLimit(a.db, limit)).toMatchObject({ allowed: true });
  });

  it('stays bounded: windows that ended are pruned as new ones open', async () => {
    const prefix = `expired:${randomUUID()}:`;
    await a.db
      .insertInto('rate_limits')
      .values(
        Array.from({ length: 150 }, (_, i) => ({
          key: `${prefix}${i}`,
          hits: 3,
          window_ends_at: sql<Date>`now() - interval '1 minute'`,
        })),
      )
      .execute();
    const left = async () =>
      Number(
        (
          await a.db
            .selectFrom('rate_limits')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('key', 'like', `${prefix}%`)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let i = 0; i < 10 && (await left()) > 0; i++) {
      await hitRateLimit(a.db, { key: `test:${randomUUID()}`, limit: 1, windowMs: 60_000 });
    }
    expect(await left()).toBe(0);
  });
});

describe('the console gateway’s own limit', () => {
  let limited: Stack;
  beforeAll(async () => {
    limited = await startStack({ config: { CONSOLE_INTERNAL_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After past CONSOLE_INTERNAL_RATE_LIMIT_PER_MINUTE, per gateway credential', async () => {
    const [first, second] = [
      await seed.gatewayCredential(limited.db),
      await seed.gatewayCredential(limited.db),
    ];
    const beat = (token: string) =>
      limited.call(token, 'POST', '/api/application/cloudsvc/console/internal/heartbeat');
    const answers = await Promise.all(Array.from({ length: 5 }, () => beat(first)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body.errors[0].code).toBe('SVC-REQ-429');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another gateway's requests are counted apart.
    expect((await beat(second)).status).toBe(200);
  });
});
