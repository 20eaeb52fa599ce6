import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PATCHES } from '../../workflows/lib/patches.js';

const WORKFLOWS = fileURLToPath(new URL('../../workflows/', import.meta.url));

/** Every `patched(…)` and `deprecatePatch(…)` argument in the workflows' code (not comments), with its file. */
function patchCalls(): { file: string; argument: string }[] {
  return readdirSync(WORKFLOWS, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      readFileSync(join(WORKFLOWS, file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
        .flatMap((line) => [...line.matchAll(/\b(?:patched|deprecatePatch)\(([^)]*)\)/g)])
        .map((call) => ({ file, argument: call[1]!.trim() })),
    );
}

describe('the patch registry (workflows/lib/patches.ts)', () => {
  it('is where every patched() id of the workflows comes from', () => {
    const calls = patchCalls();
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.argument, call.file).toMatch(/^PATCHES\.\w+\.id$/);
  });

  it('lists only patches a workflow still asks, each id once', () => {
    const asked = new Set(patchCalls().map((call) => call.argument.split('.')[1]));
    expect([...asked].sort()).toEqual(Object.keys(PATCHES).sort());
    const ids = Object.values(PATCHES).map((patch) => patch.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('dates each patch and says what runs begun before it do', () => {
    for (const patch of Object.values(PATCHES)) {
      expect(patch.since, patch.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(patch.before.length, patch.id).toBeGreaterThan(10);
    }
  });
});
