import { describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.js';
import { loadConfig } from '../../platform/config.js';

const panel = { DATABASE_URL: 'postgres://127.0.0.1/x' };
const agent = { AGENT_PANEL_URL: 'http://127.0.0.1:8080', AGENT_STATE_DIR: '/var/lib/cloudsvc-agent' };

describe('tracing settings', () => {
  it('record every trace a process begins unless TRACING_SAMPLE_RATIO says a share', () => {
    expect(loadConfig({ ...panel }).TRACING_SAMPLE_RATIO).toBe(1);
    expect(loadConfig({ ...panel, TRACING_SAMPLE_RATIO: '0.05' }).TRACING_SAMPLE_RATIO).toBe(0.05);
  });

  it('refuse a ratio outside 0 to 1, in the panel and in the agent alike', () => {
    for (const ratio of ['2', '-0.1', 'half']) {
      expect(() => loadConfig({ ...panel, TRACING_SAMPLE_RATIO: ratio })).toThrow(/TRACING_SAMPLE_RATIO/);
      expect(() => loadAgentConfig({ ...agent, TRACING_SAMPLE_RATIO: ratio })).toThrow(
        /TRACING_SAMPLE_RATIO/,
      );
    }
  });
});
