import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
  const copies: string[] = [];
  afterAll(() => {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  });

  /** The product folders copied aside, `planted` written into the copy, and the check run there. */
  function checkWith(planted: Record<string, string>) {
    const copy = mkdtempSync(join(tmpdir(), 'cloudsvc-imports-'));
    copies.push(copy);
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

  // Every forbidden import below is planted in one copy and the check runs once: each must be
  // refused by its rule, and the check must fail; a whole run of the check takes seconds.
  let planted: { status: number | null; output: string };
  beforeAll(() => {
    planted = checkWith({
      'domain/planted-a.ts': "import type { B } from './planted-b.js';\nexport type A = { b: B };\n",
      'domain/planted-b.ts': "import type { A } from './planted-a.js';\nexport type B = { a?: A };\n",
      'activities/planted.ts':
        "import { beginInstanceOperation } from '../services/instances/operations.js';\nexport const begin = beginInstanceOperation;\n",
      'domain/planted.ts': "import type { Database } from '../db/database.js';\nexport type D = Database;\n",
      'web/admin/planted.ts':
        "import { buildApis } from '../../api/index.js';\nexport const apis = buildApis;\n",
      'cli/planted.ts':
        "import { createApiRouter } from '../api/routes-kit/router.js';\nexport const r = createApiRouter;\n",
      'api/planted.ts':
        "import { adminPages } from '../web/admin/index.js';\nexport const pages = adminPages;\n",
      'wire/planted.ts': "import { pages } from '../web/admin/paths.js';\nexport const p = pages;\n",
      'http/planted.ts':
        "import type { buildApis } from '../api/index.js';\nexport type B = typeof buildApis;\n",
      'web/admin/planted.tsx':
        "import { findMigration } from '../../db/repositories/moves/migration-records.js';\nexport const P = () => <p>{String(findMigration)}</p>;\n",
      'db/repositories/accounts/planted.ts':
        "import type { UsersTable } from '../../schema/accounts/users.js';\nexport type U = UsersTable;\n",
    });
  });

  it('fails with them planted', () => {
    expect(planted.status).not.toBe(0);
  });

  it('fails on an import circle, type-only imports included', () => {
    expect(planted.output).toMatch(/error no-circular: domain\/planted-a\.ts/);
  });

  it('fails on an activity importing a service', () => {
    expect(planted.output).toMatch(
      /error activities-not-services: activities\/planted\.ts → services\/instances\/operations\.ts/,
    );
  });

  it('fails on domain/ importing the database', () => {
    expect(planted.output).toMatch(/error domain-only-domain: domain\/planted\.ts → db\/database\.ts/);
  });

  it('fails on a page or a command importing api/, and on api/ importing the pages', () => {
    expect(planted.output).toMatch(/error api-is-a-server: web\/admin\/planted\.ts → api\/index\.ts/);
    expect(planted.output).toMatch(/error api-is-a-server: cli\/planted\.ts → api\/routes-kit\/router\.ts/);
    expect(planted.output).toMatch(
      /error api-imports-no-other-face: api\/planted\.ts → web\/admin\/index\.ts/,
    );
  });

  it('fails on wire/ or http/ importing a face of the plane', () => {
    expect(planted.output).toMatch(/error wire-below-the-faces: wire\/planted\.ts → web\/admin\/paths\.ts/);
    expect(planted.output).toMatch(/error http-below-the-faces: http\/planted\.ts → api\/index\.ts/);
  });

  it('fails on an admin page reading a repository, in a .tsx file', () => {
    expect(planted.output).toMatch(
      /error pages-call-services: web\/admin\/planted\.tsx → db\/repositories\/moves\/migration-records\.ts/,
    );
  });

  it('fails on a table type read from its room, not through db/schema.ts', () => {
    expect(planted.output).toMatch(
      /error table-types-through-the-schema: db\/repositories\/accounts\/planted\.ts → db\/schema\/accounts\/users\.ts/,
    );
  });
});
