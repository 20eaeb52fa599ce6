import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../db/database.js';
import { findActiveCredential } from '../../db/repositories/accounts/active-credentials.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { hashToken } from '../../domain/credentials.js';
import { waitForPort } from '../../platform/ports.js';
import type { Children } from './children.js';
import { data, ports } from './settings.js';

/** Where browsers reach the demo's console gateway: what the API hands out with each session. */
export const consoleGatewayUrl = () => `ws://127.0.0.1:${ports.consoleGateway}/connect`;

/**
 * The reference console gateway beside the API, with a console-gateway credential of its own,
 * kept (mode 0600) in the data folder and made again once revoked.
 */
export async function startConsoleGateway(demo: { db: Database; apiUrl: string; children: Children }) {
  const file = join(data, 'console-gateway.json');
  let credential = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { credential: string }).credential
    : undefined;
  if (!credential || !(await findActiveCredential(demo.db, hashToken(credential)))) {
    credential = (await createCredential(demo.db, { type: 'console_gateway', label: 'npm start' })).token;
    writeFileSync(file, `${JSON.stringify({ credential })}\n`, { mode: 0o600 });
  }
  demo.children.launch('console-gateway', 'console-gateway/main.ts', {
    GATEWAY_PANEL_URL: demo.apiUrl,
    GATEWAY_CREDENTIAL: credential,
    GATEWAY_PORT: String(ports.consoleGateway),
  });
  await waitForPort(ports.consoleGateway, 30_000, 'the console gateway');
}
