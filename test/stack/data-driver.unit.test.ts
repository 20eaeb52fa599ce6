import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDriverNotice } from '../../scripts/start/data-driver.js';

describe("npm start's data folder", () => {
  it('says nothing on a new folder or the same driver again, and records the driver', () => {
    const data = mkdtempSync(join(tmpdir(), 'cloudsvc-data-'));
    expect(dataDriverNotice(data, 'simulated')).toBeUndefined();
    expect(dataDriverNotice(data, 'simulated')).toBeUndefined();
    expect(readFileSync(join(data, 'agent-driver'), 'utf8')).toBe('simulated\n');
  });

  it("warns when a start's driver is not the one that made the folder's instances, either way", () => {
    const data = mkdtempSync(join(tmpdir(), 'cloudsvc-data-'));
    dataDriverNotice(data, 'simulated');
    const notice = dataDriverNotice(data, 'qemu');
    expect(notice).toContain('made with the simulated driver');
    expect(notice).toContain(`delete ${data}`);
    expect(notice).toContain('AGENT_DRIVER=simulated');
    expect(dataDriverNotice(data, 'simulated')).toContain('made with real QEMU guests');
    expect(dataDriverNotice(data, 'simulated')).toBeUndefined();
  });
});
