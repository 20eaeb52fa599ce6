/**
 * `npm run lint:openapi`: writes the OpenAPI document of every API, as the server builds and serves
 * them, to a temporary folder and lints them all with Redocly's CLI under `redocly.yaml`. Exits
 * non-zero on any error. Needs no database, Temporal or listening server: the documents come from
 * the route definitions alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApis } from '../api/index.js';
import { DOCUMENT_NAMES, openApiDocuments } from '../api/reference/openapi.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'cloudsvc-openapi-'));
try {
  const documents = openApiDocuments(buildApis());
  const files = DOCUMENT_NAMES.map((name) => {
    const file = join(folder, `${name}.json`);
    writeFileSync(file, `${JSON.stringify(documents[name], null, 2)}\n`);
    return file;
  });
  const lint = spawnSync(
    join(root, 'node_modules', '.bin', 'redocly'),
    ['lint', '--config', join(root, 'redocly.yaml'), ...files],
    {
      cwd: root,
      stdio: 'inherit',
      // The CLI otherwise reports usage and looks for updates over the network.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  if (lint.error) throw lint.error;
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
