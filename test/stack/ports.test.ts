import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.js';
import { STACK_PORT_SPAN, stackPorts } from '../../platform/stack-ports.js';
import { temporalServerConfig } from '../../scripts/prod/temporal-config.js';

/** Every port of the stack on `base`, the production shape's Temporal server's included. */
function everyPort(base: number): number[] {
  const { base: _base, ...placed } = stackPorts(base);
  const yaml = temporalServerConfig({
    postgres: { host: '127.0.0.1', port: 5432, user: 'u', password: 'p' },
    frontendPort: stackPorts(base).temporal,
    dynamicConfigFile: '/dev/null',
  });
  // Its frontend is the stack's `temporal`; its other services' and membership ports follow it.
  const temporal = [...yaml.matchAll(/(?:grpcPort|membershipPort|httpPort): (\d+)/g)]
    .map((m) => Number(m[1]))
    .filter((port) => port !== placed.temporal);
  return [...Object.values(placed).flat(), ...temporal];
}

describe("the stacks' ports (platform/stack-ports.ts)", () => {
  it('puts every listener of a stack at its own port within its span from the base', () => {
    const ports = everyPort(8080);
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port - 8080).toBeGreaterThanOrEqual(0);
    for (const port of ports) expect(port - 8080).toBeLessThan(STACK_PORT_SPAN);
    // The defaults a newcomer reads in the README.
    expect(stackPorts(8080)).toMatchObject({ api: 8080, consoleGateway: 8081, worker: 8082, metrics: 8083 });
  });

  it('moves every port of a second stack with its base, meeting none of the first', () => {
    const first = new Set(everyPort(8080));
    expect(everyPort(8080 + STACK_PORT_SPAN).filter((port) => first.has(port))).toEqual([]);
  });

  it("gives a server's own ports the same places from its PORT, each setting winning over its place", () => {
    const placed = loadConfig({ DATABASE_URL: 'postgres://x', PORT: '9080' });
    expect(placed).toMatchObject({
      METRICS_PORT: 9083,
      WORKER_HTTP_PORT: 9082,
      WORKER_SDK_METRICS_ADDRESS: '127.0.0.1:9084',
    });
    const set = loadConfig({
      DATABASE_URL: 'postgres://x',
      PORT: '9080',
      METRICS_PORT: '7000',
      WORKER_SDK_METRICS_ADDRESS: '',
    });
    expect(set).toMatchObject({ METRICS_PORT: 7000, WORKER_HTTP_PORT: 9082, WORKER_SDK_METRICS_ADDRESS: '' });
    // PORT 0, any free port: each of the others any free one too, and no SDK exporter.
    expect(loadConfig({ DATABASE_URL: 'postgres://x', PORT: '0' })).toMatchObject({
      METRICS_PORT: 0,
      WORKER_HTTP_PORT: 0,
      WORKER_SDK_METRICS_ADDRESS: '',
    });
  });

  it('refuses a PORT whose places run past 65535, naming the setting to give', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x', PORT: '65534' })).toThrow(
      /METRICS_PORT: PORT\+3 is beyond 65535: set METRICS_PORT/,
    );
    expect(() => stackPorts(65_500)).toThrow(/must end by 65535/);
  });
});
