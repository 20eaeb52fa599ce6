import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm run check:imports` (part of `npm run check`) on a copy of the product code, with one file
 * planted at a time: the check must refuse what the structure forbids, and pass the tree as it is.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = [
  'activities',
  'agent',
  'api',
  'cli',
  'clients',
  'console-gateway',
  'db',
  'domain',
  'http',
  'platform',
  'scripts',
  'server',
  'services',
  'web',
  'wire',
  'worker',
  'workflows',
];

describe('the import rules of npm run check', () => {
  let copy: string | undefined;
  afterEach(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
    copy = undefined;
  });

  /** The product folders copied aside, `planted` written into the copy, and the check run there. */
  function checkWith(planted: Record<string, string>) {
    copy = mkdtempSync(join(tmpdir(), 'cloudsvc-imports-'));
    for (const folder of FOLDERS) cpSync(join(root, folder), join(copy, folder), { recursive: true });
    for (const file of ['.dependency-cruiser.cjs', 'package.json', 'tsconfig.json'])
      cpSync(join(root, file), join(copy, file));
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    for (const [path, text] of Object.entries(planted)) writeFileSync(join(copy, path), text);
    const run = spawnSync('npm', ['run', '--silent', 'check:imports'], { cwd: copy, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  it('passes the tree as it is', () => {
    const { status, output } = checkWith({});
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it('fails on an import circle, type-only imports included', () => {
    const { status, output } = checkWith({
      'domain/planted-a.ts': "import type { B } from './planted-b.js';\nexport type A = { b: B };\n",
      'domain/planted-b.ts': "import type { A } from './planted-a.js';\nexport type B = { a?: A };\n",
    });
    expect(output).toMatch(/error no-circular: domain\/planted-a\.ts/);
    expect(status).not.toBe(0);
  });

  it('fails on an activity importing a service', () => {
    const { status, output } = checkWith({
      'activities/planted.ts':
        "import { beginInstanceOperation } from '../services/instances/operations.js';\nexport const begin = beginInstanceOperation;\n",
    });
    expect(output).toMatch(
      /error activities-not-services: activities\/planted\.ts → services\/instances\/operations\.ts/,
    );
    expect(status).not.toBe(0);
  });

  it('fails on domain/ importing the database', () => {
    const { status, output } = checkWith({
      'domain/planted.ts': "import type { Database } from '../db/database.js';\nexport type D = Database;\n",
    });
    expect(output).toMatch(/error domain-only-domain: domain\/planted\.ts → db\/database\.ts/);
    expect(status).not.toBe(0);
  });

  it('fails on a page or a command importing api/, and on api/ importing the pages', () => {
    const { status, output } = checkWith({
      'web/admin/planted.ts':
        "import { buildApis } from '../../api/index.js';\nexport const apis = buildApis;\n",
      'cli/planted.ts':
        "import { createApiRouter } from '../api/routes-kit/router.js';\nexport const r = createApiRouter;\n",
      'api/planted.ts':
        "import { adminPages } from '../web/admin/index.js';\nexport const pages = adminPages;\n",
    });
    expect(output).toMatch(/error api-is-a-server: web\/admin\/planted\.ts → api\/index\.ts/);
    expect(output).toMatch(/error api-is-a-server: cli\/planted\.ts → api\/routes-kit\/router\.ts/);
    expect(output).toMatch(/error api-imports-no-other-face: api\/planted\.ts → web\/admin\/index\.ts/);
    expect(status).not.toBe(0);
  });

  it('fails on wire/ or http/ importing a face of the plane', () => {
    const { status, output } = checkWith({
      'wire/planted.ts': "import { pages } from '../web/admin/paths.js';\nexport const p = pages;\n",
      'http/planted.ts':
        "import type { buildApis } from '../api/index.js';\nexport type B = typeof buildApis;\n",
    });
    expect(output).toMatch(/error wire-below-the-faces: wire\/planted\.ts → web\/admin\/paths\.ts/);
    expect(output).toMatch(/error http-below-the-faces: http\/planted\.ts → api\/index\.ts/);
    expect(status).not.toBe(0);
  });

  it('fails on an admin page reading a repository, in a .tsx file', () => {
    const { status, output } = checkWith({
      'web/admin/planted.tsx':
        "import { findMigration } from '../../db/repositories/migrations.js';\nexport const P = () => <p>{String(findMigration)}</p>;\n",
    });
    expect(output).toMatch(
      /error pages-call-services: web\/admin\/planted\.tsx → db\/repositories\/migrations\.ts/,
    );
    expect(status).not.toBe(0);
  });
});
