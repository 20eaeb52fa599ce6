import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  USER_DATA_MAX_BYTES,
  USER_DATA_MAX_ENCODED,
  userDataKind,
} from '../../domain/instances/user-data.js';
import { judgeUserData } from '../../domain/instances/user-data-verdict.js';

/** A customer's user-data as a request carries it (docs/api.md "User-data"). */
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

const refusal = (encoded: string) => {
  const verdict = judgeUserData(encoded);
  if (verdict.ok) throw new Error('accepted');
  expect(verdict.code).toBe('SVC-REQ-400');
  return verdict.detail;
};

describe('user-data', () => {
  it('takes a cloud-config: its text, kind, decoded size and SHA-256', () => {
    const text = '#cloud-config\nwrite_files:\n  - path: /etc/hello\n    content: hi\n';
    const verdict = judgeUserData(b64(text));
    expect(verdict).toEqual({
      ok: true,
      userData: {
        text,
        kind: 'cloud-config',
        bytes: Buffer.byteLength(text),
        sha256: createHash('sha256').update(text).digest('hex'),
      },
    });
  });

  it('takes a script, an empty cloud-config, repeated keys and base64 broken into lines', () => {
    expect(judgeUserData(b64('#!/bin/sh\necho hi > /etc/hello\n'))).toMatchObject({
      ok: true,
      userData: { kind: 'script' },
    });
    expect(judgeUserData(b64('#cloud-config\n'))).toMatchObject({ ok: true });
    expect(judgeUserData(b64('#cloud-config\r\nhostname: a\nhostname: b\n'))).toMatchObject({ ok: true });
    const long = `#cloud-config\nruncmd:\n${'  - [true]\n'.repeat(100)}`;
    const wrapped = b64(long).replace(/(.{76})/g, '$1\n');
    expect(judgeUserData(wrapped)).toMatchObject({ ok: true, userData: { text: long } });
  });

  it('refuses what is not base64, empty, not UTF-8, or past the bound', () => {
    expect(refusal('#cloud-config')).toMatch(/base64/);
    expect(refusal('aGk')).toMatch(/base64/);
    expect(refusal('aGk= ')).toMatch(/base64/);
    expect(refusal('')).toMatch(/empty/);
    expect(refusal(b64(Buffer.from([0x23, 0x21, 0xff, 0xfe])))).toMatch(/UTF-8/);
    const past = `#!/bin/sh\n${'#'.repeat(USER_DATA_MAX_BYTES)}`;
    expect(refusal(b64(past))).toBe(
      `Is ${USER_DATA_MAX_BYTES + 10} bytes once decoded; at most ${USER_DATA_MAX_BYTES}.`,
    );
    const atBound = `#!/bin/sh\n${'#'.repeat(USER_DATA_MAX_BYTES - 10)}`;
    expect(judgeUserData(b64(atBound))).toMatchObject({ ok: true, userData: { bytes: USER_DATA_MAX_BYTES } });
    // The field's own bound lets the largest accepted one through, broken into lines with CRLF.
    expect(b64(atBound).replace(/(.{76})/g, '$1\r\n').length).toBeLessThanOrEqual(USER_DATA_MAX_ENCODED);
  });

  it('refuses what cloud-init would not run: neither a cloud-config nor a script, YAML that fails or is no mapping', () => {
    expect(refusal(b64('echo hi\n'))).toMatch(/cloud-config.*script/);
    expect(refusal(b64('\ufeff#cloud-config\n'))).toMatch(/cloud-config.*script/);
    expect(refusal(b64('#cloud-configs\n'))).toMatch(/cloud-config.*script/);
    expect(refusal(b64('#include\nhttp://example.test/x\n'))).toMatch(/cloud-config.*script/);
    expect(refusal(b64('#cloud-config\nruncmd: [\n'))).toMatch(/^Is not valid YAML: .*line \d+/);
    expect(refusal(b64('#cloud-config\n- a\n- b\n'))).toMatch(/mapping/);
    expect(refusal(b64('#cloud-config\njust text\n'))).toMatch(/mapping/);
  });

  it('knows its kind by the first line', () => {
    expect(userDataKind('#cloud-config')).toBe('cloud-config');
    expect(userDataKind('#cloud-config \t\nx: 1')).toBe('cloud-config');
    expect(userDataKind('#!')).toBe('script');
    expect(userDataKind(' #!/bin/sh')).toBeUndefined();
  });
});
