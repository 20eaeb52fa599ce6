#!/usr/bin/env node
// The `cloudsvc` operator CLI. An image holds only the built code (dist/); a checkout holds the
// TypeScript too, and there the build is used only while it is newer than every source file, so
// an old `npm run build` never runs in place of the code beside it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = new URL('../dist/cli/main.js', import.meta.url);
const source = new URL('../cli/main.ts', import.meta.url);
// The folders tsconfig.build.json compiles that the CLI may load.
const SOURCE_DIRS = [
  'cli',
  'api',
  'activities',
  'agent',
  'db',
  'domain',
  'platform',
  'services',
  'worker',
  'workflows',
];

function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(`${root}/${dir}`)) walk(`${root}/${dir}`);
  return newest;
}

const useBuild = existsSync(built) && (!existsSync(source) || statSync(built).mtimeMs >= newestSource());
if (useBuild) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
}
