// `npm run check:imports`: dependency-cruiser over the product's folders (.dependency-cruiser.cjs).
//
// dependency-cruiser 17, the last to run on Node 20, parses every file with swc as TypeScript
// without JSX, so the admin pages' .tsx files stop the whole run (fixed in 18, which needs Node
// 22: sverweij/dependency-cruiser#1081). Until the machines run Node 22, a .tsx file is parsed
// with JSX on; nothing else changes.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const swc = require('@swc/core');
const parseFileSync = swc.parseFileSync;
swc.parseFileSync = (file, options) =>
  parseFileSync(file, file.endsWith('.tsx') ? { ...options, tsx: true } : options);

// The package exports no path to its command; it sits beside its main module (src/main/index.mjs).
await import(new URL('../../bin/dependency-cruise.mjs', import.meta.resolve('dependency-cruiser')).href);
