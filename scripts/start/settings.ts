import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataDir } from '../../platform/runtime-file.js';

/** Where `npm start` keeps things and which ports it takes (each can be set in the environment). */
export const root = fileURLToPath(new URL('../..', import.meta.url));
export const data = dataDir();
export const logs = join(data, 'logs');
export const env = process.env;
export const ports = {
  api: Number(env.PORT ?? 8080),
  temporal: Number(env.TEMPORAL_PORT ?? 7233),
  temporalUi: Number(env.TEMPORAL_UI_PORT ?? 8233),
  database: Number(env.EMBEDDED_DB_PORT ?? 55432),
  consoleGateway: Number(env.CONSOLE_GATEWAY_PORT ?? 8081),
  worker: Number(env.WORKER_HTTP_PORT ?? 8082),
};

export const say = (line: string) => process.stdout.write(`${line}\n`);
