import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../console-gateway/config.js';

/** The gateway's credential as a container hands it over: a file (the compose file's set-up writes one). */
const folder = mkdtempSync(join(tmpdir(), 'cloudsvc-gateway-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const PANEL = { GATEWAY_PANEL_URL: 'http://panel.example:8080' };

describe('loadGatewayConfig', () => {
  it('reads the credential from GATEWAY_CREDENTIAL_FILE, without the newline a file ends with', () => {
    const file = join(folder, 'credential');
    writeFileSync(file, 'csw_fromafile\n');
    expect(loadGatewayConfig({ ...PANEL, GATEWAY_CREDENTIAL_FILE: file }).GATEWAY_CREDENTIAL).toBe(
      'csw_fromafile',
    );
    // Read again, the same: nothing of the first read is kept.
    expect(loadGatewayConfig({ ...PANEL, GATEWAY_CREDENTIAL_FILE: file }).GATEWAY_CREDENTIAL).toBe(
      'csw_fromafile',
    );
  });

  it('refuses a missing file, a file that holds no credential, and both ways at once', () => {
    const missing = join(folder, 'absent');
    expect(() => loadGatewayConfig({ ...PANEL, GATEWAY_CREDENTIAL_FILE: missing })).toThrow(
      `GATEWAY_CREDENTIAL_FILE ${missing} cannot be read (ENOENT)`,
    );
    const wrong = join(folder, 'wrong');
    writeFileSync(wrong, 'cak_notagatewaycredential\n');
    expect(() => loadGatewayConfig({ ...PANEL, GATEWAY_CREDENTIAL_FILE: wrong })).toThrow(
      /GATEWAY_CREDENTIAL/,
    );
    writeFileSync(join(folder, 'credential'), 'csw_fromafile\n');
    expect(() =>
      loadGatewayConfig({
        ...PANEL,
        GATEWAY_CREDENTIAL: 'csw_fromtheenvironment',
        GATEWAY_CREDENTIAL_FILE: join(folder, 'credential'),
      }),
    ).toThrow('set GATEWAY_CREDENTIAL or GATEWAY_CREDENTIAL_FILE, not both');
  });

  it('still takes the credential from the environment', () => {
    expect(loadGatewayConfig({ ...PANEL, GATEWAY_CREDENTIAL: 'csw_env' }).GATEWAY_CREDENTIAL).toBe('csw_env');
  });
});
