import { relative } from 'node:path';
import type { TestModule } from 'vitest/node';

/**
 * The run's slowest files, each with the time it took to load and the time its tests and hooks
 * ran, so the next file to split (or to boot its guests once) is plain from any run's end.
 */
export function slowestFiles(testModules: ReadonlyArray<TestModule>, count = 15): string {
  const timed = testModules.map((module) => {
    const d = module.diagnostic();
    const load = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration;
    return {
      file: relative(process.cwd(), module.moduleId),
      load,
      run: d.duration,
      total: load + d.duration,
    };
  });
  if (timed.length < 2) return '';
  const rows = timed
    .sort((a, b) => b.total - a.total)
    .slice(0, count)
    .map((t) => `  ${seconds(t.total)}  ${seconds(t.load)}  ${seconds(t.run)}  ${t.file}`);
  return `\nSlowest ${rows.length} files (seconds: total, loading, tests and hooks):\n${rows.join('\n')}\n`;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
