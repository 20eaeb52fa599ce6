import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type DemoDriver = 'simulated' | 'qemu';

/**
 * Which driver made the data folder's instances, kept beside them: a folder of simulated guests
 * started with real ones (or the other way) holds instances no hypervisor has, which the panel
 * then marks `error` (its guest missing) a moment after the banner. Says so before that happens;
 * undefined when the folder is new or was made by the same driver. Records this start's driver.
 */
export function dataDriverNotice(data: string, driver: DemoDriver): string | undefined {
  const file = join(data, 'agent-driver');
  const before = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  writeFileSync(file, `${driver}\n`);
  if (before === undefined || before === driver) return undefined;
  const names = { simulated: 'the simulated driver', qemu: 'real QEMU guests' };
  return (
    `${data} was made with ${names[before as DemoDriver] ?? before}; its instances have no guest under ` +
    `${names[driver]}, and the panel will mark them error (guest missing) once the agents report. ` +
    `Stop, delete ${data} and start again for a fresh demo, or start with AGENT_DRIVER=${before}.`
  );
}
