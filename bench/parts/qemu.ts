import { benchQemuGuests } from '../qemu-guests.js';
import type { BenchStack } from '../stack.js';

/** 7. Real guests under QEMU, on hypervisors of their own. */
export async function qemuPart(stack: BenchStack): Promise<void> {
  const workflows = await stack.workflows();
  await benchQemuGuests({
    deps: workflows.deps({ MIGRATION_SOURCE_RETENTION_MS: 0 }),
    db: stack.db,
    apiUrl: stack.apiUrl,
    locationId: stack.location.id,
    userId: stack.user.id,
    creates: Number(process.env.BENCH_QEMU_CREATES ?? 3),
    migrations: Number(process.env.BENCH_QEMU_MIGRATIONS ?? 3),
    launch: stack.launch,
  });
}
