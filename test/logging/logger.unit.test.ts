import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueSecret } from '../../domain/credentials.js';
import { createLogger, type LogLevel } from '../../platform/logger.js';

/** A logger whose lines the test reads, as JSON records and as the raw text written. */
function recording(level: LogLevel = 'debug', bindings: Record<string, unknown> = {}) {
  const lines: string[] = [];
  const logger = createLogger(level, bindings, (line) => lines.push(line));
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line)) };
}

describe('log lines', () => {
  it('are one JSON object a line: level, ISO time, message, every binding of the context, the fields', () => {
    const { logger, lines, records } = recording('debug', { service: 'api' });
    logger
      .child({ request_id: 'r-1' })
      .child({ support_id: 'sup_1' })
      .warn('request refused', { status: 404 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('}\n')).toBe(true);
    expect(records()[0]).toEqual({
      level: 'warn',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: 'api',
      request_id: 'r-1',
      support_id: 'sup_1',
      status: 404,
      msg: 'request refused',
    });
  });

  it('below the level, or at silent, write nothing', () => {
    const info = recording('info');
    info.logger.debug('hidden');
    info.logger.child({ a: 1 }).info('shown');
    expect(info.records().map((r) => r.msg)).toEqual(['shown']);
    expect(info.logger.enabled('debug')).toBe(false);
    expect(info.logger.enabled('info')).toBe(true);

    const silent = recording('silent');
    silent.logger.error('never');
    silent.logger.child({ a: 1 }).error('never');
    expect(silent.lines).toEqual([]);
  });

  it('keep a child made before its parent first wrote, and its parent unchanged', () => {
    const { logger, records } = recording('debug', { service: 'worker' });
    const child = logger.child({ workflow_id: 'wf-1' });
    logger.info('parent');
    child.info('child');
    logger.info('parent again');
    expect(records().map((r) => [r.msg, r.workflow_id])).toEqual([
      ['parent', undefined],
      ['child', 'wf-1'],
      ['parent again', undefined],
    ]);
  });

  it('turn errors into name, message, stack and code, with every cause', () => {
    const { logger, records } = recording();
    const inner = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    logger.error('request failed', { cause: new Error('query failed', { cause: inner }) });
    const cause = records()[0].cause;
    expect(cause).toMatchObject({ name: 'Error', message: 'query failed' });
    expect(cause.stack).toContain('query failed');
    expect(cause.cause).toMatchObject({ message: 'connection refused', code: 'ECONNREFUSED' });
  });
});

describe('redaction', () => {
  const token = issueSecret('client').token;
  const agentCredential = issueSecret('agent').token;
  const opaque = randomBytes(24).toString('base64url');

  it('replaces secret fields at any depth, in fields and in bindings', () => {
    const { logger, lines, records } = recording('debug', { authorization: `Bearer ${opaque}` });
    logger.child({ token }).info('received', {
      headers: { Authorization: `Bearer ${opaque}`, 'X-Api-Key': opaque, 'content-type': 'application/json' },
      body: { enrollment_token: opaque, agent_version: '1.0.0', nested: [{ root_password: opaque }] },
      taskToken: new Uint8Array([1, 2, 3]),
      provider_credentials: { secret: opaque },
      credential_id: 'b3f1c2de-0000-4000-8000-000000000001',
    });
    const text = lines.join('');
    for (const secret of [token, opaque]) expect(text).not.toContain(secret);
    const record = records()[0];
    expect(record.authorization).toBe('[redacted]');
    expect(record.token).toBe('[redacted]');
    expect(record.headers).toEqual({
      Authorization: '[redacted]',
      'X-Api-Key': '[redacted]',
      'content-type': 'application/json',
    });
    expect(record.body).toEqual({
      enrollment_token: '[redacted]',
      agent_version: '1.0.0',
      nested: [{ root_password: '[redacted]' }],
    });
    expect(record.taskToken).toBe('[redacted]');
    expect(record.provider_credentials).toBe('[redacted]');
    // An id that names a credential is not one.
    expect(record.credential_id).toBe('b3f1c2de-0000-4000-8000-000000000001');
  });

  it('replaces a move’s transport key by its field’s name, in a task’s params and a run’s input alike', () => {
    const { logger, lines, records } = recording('debug');
    const key = randomBytes(32).toString('hex');
    logger.info('task', {
      params: { migration_id: 'b3f1c2de-0000-4000-8000-000000000001', transport_secret: key },
      input: { transportSecret: key },
    });
    expect(lines.join('')).not.toContain(key);
    expect(records()[0].params).toEqual({
      migration_id: 'b3f1c2de-0000-4000-8000-000000000001',
      transport_secret: '[redacted]',
    });
    expect(records()[0].input).toEqual({ transportSecret: '[redacted]' });
  });

  it('finds secrets by their shape in messages, text fields, errors and their causes', () => {
    const { logger, lines, records } = recording();
    logger.warn(`agent said: retry with ${agentCredential}`, {
      message: `mount failed: password=${opaque}; see "token": "${opaque}x"`,
      url: `postgres://cloudsvc:${opaque}@db.internal:5432/cloudsvc`,
      error: new Error('upstream refused', {
        cause: new Error(`header was Authorization: Bearer ${opaque}, key ${token}`),
      }),
    });
    const text = lines.join('');
    for (const secret of [token, agentCredential, opaque]) expect(text).not.toContain(secret);
    const record = records()[0];
    // What is left still says what happened, and which kind of credential it was.
    expect(record.msg).toBe('agent said: retry with csg_[redacted]');
    expect(record.message).toContain('password=[redacted]');
    expect(record.url).toBe('postgres://cloudsvc:[redacted]@db.internal:5432/cloudsvc');
    expect(record.error.cause.message).toBe(
      'header was Authorization: Bearer [redacted], key csc_[redacted]',
    );
    expect(record.error.cause.stack).not.toContain(opaque);
  });

  it('leaves a key hint, ids and ordinary text alone', () => {
    const { logger, records } = recording();
    const hint = issueSecret('client').hint;
    logger.info('key revoked', {
      hint,
      path: '/api/client/cloud/2f1c',
      note: 'the password is never logged',
    });
    expect(records()[0]).toMatchObject({
      hint,
      path: '/api/client/cloud/2f1c',
      note: 'the password is never logged',
    });
  });

  it('writes cycles, deep nesting and big integers without failing', () => {
    const { logger, records } = recording();
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { bottom: true };
    for (let i = 0; i < 20; i++) deep = { deeper: deep };
    logger.info('odd values', { cyclic, deep, big: 2n ** 70n });
    const record = records()[0];
    expect(record.cyclic).toEqual({ name: 'a', self: '[circular]' });
    expect(JSON.stringify(record.deep)).toContain('[nested too deep]');
    expect(record.big).toBe('1180591620717411303424');
  });
});

describe('the cost on the hot path', () => {
  // docs/operations.md "Logging": a request that writes no line (every successful one below debug) pays for a
  // child logger and a level check; the budget for logging on that path is 2 µs.
  it('a request that writes no line stays far inside 2 µs of logging', () => {
    const root = createLogger('info', { service: 'api' }, () => {});
    const requests = 200_000;
    const run = () => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < requests; i++) {
        const logger = root.child({ request_id: `req-${i}` });
        if (logger.enabled('debug')) throw new Error('debug is off');
      }
      return Number(process.hrtime.bigint() - started) / requests / 1000;
    };
    run();
    expect(Math.min(run(), run(), run())).toBeLessThan(2);
  });
});
