import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataDir } from '../../platform/runtime-file.js';
import { basePort, stackPorts } from '../../platform/stack-ports.js';

/** Where `npm start` keeps things, and its ports: every one at its offset from PORT (platform/stack-ports.ts). */
export const root = fileURLToPath(new URL('../..', import.meta.url));
export const data = dataDir();
export const logs = join(data, 'logs');
export const env = process.env;
export const ports = stackPorts(basePort(env));

export const say = (line: string) => process.stdout.write(`${line}\n`);
// A stack whose terminal (or starter) is gone still stops in order: a line it can no longer print
// must not end it first.
process.stdout.on('error', () => {});

/** Port settings a stack does not read (each of its ports follows PORT), said rather than silently passed over. */
const PLACED_BY_PORT = [
  'TEMPORAL_PORT',
  'TEMPORAL_UI_PORT',
  'EMBEDDED_DB_PORT',
  'CONSOLE_GATEWAY_PORT',
  'METRICS_PORT',
  'WORKER_HTTP_PORT',
  'WORKER_SDK_METRICS_ADDRESS',
];

export function sayIgnoredPortSettings(): void {
  const set = PLACED_BY_PORT.filter((name) => env[name] !== undefined);
  if (set.length > 0)
    say(
      `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} not read: every port of the stack is placed from ` +
        `PORT (${ports.base}; docs/configuration.md "Ports")`,
    );
}
