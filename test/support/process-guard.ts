import { afterAll, beforeAll } from 'vitest';

/**
 * The `integration` project runs file after file in one process, so a file must leave the process's
 * environment as it found it: one that sets a variable changes what every later file reads. Such a
 * file fails here, naming the variables, and belongs in `own-process` (vitest.config.ts).
 */
let before: Record<string, string | undefined> = {};

beforeAll(() => {
  before = { ...process.env };
});

afterAll(() => {
  const names = new Set([...Object.keys(before), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => before[name] !== process.env[name]).sort();
  if (changed.length > 0)
    throw new Error(
      `this file changed the environment its process goes on with (${changed.join(', ')}): restore it, or run the file in the own-process project`,
    );
});
