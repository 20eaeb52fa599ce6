import type { AgentTaskParams, AgentTaskResult } from '../../../../domain/agent-tasks.js';
import {
  type GuestSize,
  type HotplugCeiling,
  resizeMode,
  runningRoom,
} from '../../../../domain/instances/hot-resize.js';
import { DriverFailure } from '../../driver.js';
import { guestAlive, guestFiles, stopGuest } from './guest-process.js';
import type { QemuGuests } from './guests.js';
import { Qmp } from './qmp.js';
import { bootSize, dimmMemory, type HotCpu, type HotDimm, memorySlots } from './room-to-grow.js';
import type { QemuInstance } from './state.js';

type ResizeResult = AgentTaskResult<'instance.resize'>;

/** A topology slot of the guest's vCPUs (QMP query-hotpluggable-cpus); `qom-path` once plugged. */
interface CpuSlot {
  type: string;
  props: Record<string, number>;
  'qom-path'?: string;
}

interface MemoryDevice {
  type: string;
  data: { id?: string; size: number; slot: number; addr: number };
}

const MIB = 1024 * 1024;
/** Where QEMU puts the devices given an id: the vCPUs added here are the ones under it. */
const PERIPHERALS = '/machine/peripheral/';

/**
 * A plan change on a QEMU guest (`instance.resize`): `hot` adds vCPUs and memory to the running
 * guest within the ceiling it was booted with; `cold` stops it, records its new size and ceiling,
 * and starts it again if it ran. Both look first at what is there, so a repeated task changes
 * nothing.
 */
export async function resizeGuest(
  guests: QemuGuests,
  p: AgentTaskParams<'instance.resize'>,
): Promise<ResizeResult> {
  const instance = guests.existing(p.instance_id);
  const next = { cpu_cores: p.cpu_cores, memory_mb: p.memory_mb };
  if (guestAlive(instance.dir)) await readRunningSize(guests, instance);
  if (p.mode === 'hot') await growRunning(guests, instance, next);
  else await resizeCold(guests, p.instance_id, instance, next, p.ceiling);
  return {
    power_state: await guests.powerState(instance.dir),
    cpu_cores: instance.cpu_cores,
    memory_mb: instance.memory_mb,
    applied: p.mode,
    ...(instance.ceiling && { ceiling: instance.ceiling }),
  };
}

/**
 * The running guest's size as its QEMU holds it: what a task cut off after a device was added (and
 * before the state file said so) did is found here, not done again.
 */
async function readRunningSize(guests: QemuGuests, instance: QemuInstance): Promise<void> {
  const found = await Qmp.with(guestFiles(instance.dir).qmp, async (qmp) => {
    const slots = await qmp.execute<CpuSlot[]>('query-hotpluggable-cpus');
    const memory = await qmp.execute<{ 'base-memory': number }>('query-memory-size-summary');
    const devices = await qmp.execute<MemoryDevice[]>('query-memory-devices');
    return { slots, base: memory['base-memory'], devices };
  }).catch(() => undefined);
  // A QEMU that does not answer (ending, or not yet listening) is left to the task's own steps.
  if (!found) return;
  const cpus: HotCpu[] = found.slots.flatMap((s) =>
    s['qom-path']?.startsWith(PERIPHERALS)
      ? [{ id: s['qom-path'].slice(PERIPHERALS.length), driver: s.type, props: s.props }]
      : [],
  );
  const dimms: HotDimm[] = found.devices.flatMap((d) =>
    d.type === 'dimm' && d.data.id
      ? [{ id: d.data.id, size_mb: d.data.size / MIB, slot: d.data.slot, addr: d.data.addr }]
      : [],
  );
  instance.cpu_cores = found.slots.filter((s) => s['qom-path']).length;
  instance.memory_mb = found.base / MIB + dimms.reduce((sum, d) => sum + d.size_mb, 0);
  if (cpus.length > 0 || dimms.length > 0) instance.hot_added = { cpus, dimms };
  else delete instance.hot_added;
  guests.save();
}

const sameSize = (a: GuestSize, b: GuestSize) => a.cpu_cores === b.cpu_cores && a.memory_mb === b.memory_mb;

const refused = (detail: string) =>
  new DriverFailure('HOT_RESIZE_REFUSED', `the running guest cannot take this change: ${detail}`, false);

/** The growth, or the failure saying why this host cannot hold it. */
function checkRoom(guests: QemuGuests, from: GuestSize, to: GuestSize): void {
  const need = {
    cpu_cores: Math.max(0, to.cpu_cores - from.cpu_cores),
    memory_mb: Math.max(0, to.memory_mb - from.memory_mb),
    disk_mb: 0,
  };
  if (!guests.fits(need))
    throw new DriverFailure('INSUFFICIENT_CAPACITY', 'the hypervisor lacks the capacity to grow it', false);
}

/**
 * vCPUs and memory added to the running guest over QMP, as the rule of what is hot allows
 * (domain/instances/hot-resize.ts); anything else is refused with nothing changed. The vCPUs fill
 * the first free topology slots, each named after its slot; the memory is one DIMM of the whole
 * growth, named after the first free number: a repeated task finds them there.
 */
async function growRunning(guests: QemuGuests, instance: QemuInstance, next: GuestSize): Promise<void> {
  if (sameSize(instance, next)) return;
  const running = (await guests.powerState(instance.dir)) === 'running';
  // The room its QEMU process was started with, not the room its next boot would give.
  const room = runningRoom(instance);
  const verdict = resizeMode(instance, next, room ?? null, running);
  if (verdict.mode !== 'hot') throw refused(verdict.reasons.join('; '));
  const dimms = instance.hot_added?.dimms ?? [];
  const memory = next.memory_mb - instance.memory_mb;
  if (memory > 0 && dimms.length >= memorySlots(bootSize(instance).memory_mb, room))
    throw refused('its memory slots are taken until its next boot');
  checkRoom(guests, instance, next);
  try {
    await Qmp.with(guestFiles(instance.dir).qmp, async (qmp) => {
      await addCpus(qmp, next.cpu_cores - instance.cpu_cores);
      if (memory > 0) await addDimm(qmp, dimms, memory);
    });
  } finally {
    // What went in before a failure is the guest's now: the state file says so, and a repeat adds the rest.
    await readRunningSize(guests, instance);
  }
}

const TOPOLOGY = ['socket', 'die', 'core', 'thread'] as const;

const topologyOrder = (a: Record<string, number>, b: Record<string, number>) => {
  for (const level of TOPOLOGY) {
    const difference = (a[`${level}-id`] ?? 0) - (b[`${level}-id`] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
};

/** A vCPU's device id, from the slot it fills: `vcpu-s<socket>[-d<die>]-c<core>-t<thread>`. */
const cpuId = (props: Record<string, number>) =>
  [
    'vcpu',
    ...TOPOLOGY.flatMap((k) => (props[`${k}-id`] === undefined ? [] : [`${k[0]}${props[`${k}-id`]}`])),
  ].join('-');

async function addCpus(qmp: Qmp, count: number): Promise<void> {
  if (count <= 0) return;
  const slots = await qmp.execute<CpuSlot[]>('query-hotpluggable-cpus');
  // Added in topology order, they match the guest's own CPU numbers.
  const free = slots.filter((s) => !s['qom-path']).sort((a, b) => topologyOrder(a.props, b.props));
  for (const slot of free.slice(0, count)) {
    await qmp.execute('device_add', { driver: slot.type, id: cpuId(slot.props), ...slot.props });
  }
}

async function addDimm(qmp: Qmp, dimms: readonly HotDimm[], sizeMb: number): Promise<void> {
  let n = 1;
  while (dimms.some((d) => d.id === `dimm${n}`)) n++;
  const id = `dimm${n}`;
  // Its RAM object may be left from a task cut off before the device was added: made anew.
  await qmp.execute('object-del', { id: dimmMemory(id) }).catch(() => undefined);
  await qmp.execute('object-add', {
    'qom-type': 'memory-backend-ram',
    id: dimmMemory(id),
    size: sizeMb * MIB,
  });
  await qmp.execute('device_add', { driver: 'pc-dimm', id, memdev: dimmMemory(id) });
}

const sameCeiling = (a: HotplugCeiling | undefined, b: HotplugCeiling | undefined) =>
  a === b || (a !== undefined && b !== undefined && sameSize(a, b));

/**
 * The new size and ceiling recorded with the guest stopped, and the guest started again with them
 * if it ran; the start is owed in the state file from the stop on, so a task cut off in between
 * starts it on its repeat, and a repeat that finds the size there does not restart it again.
 */
async function resizeCold(
  guests: QemuGuests,
  instanceId: string,
  instance: QemuInstance,
  next: GuestSize,
  ceiling: HotplugCeiling | undefined,
): Promise<void> {
  if (ceiling && (ceiling.cpu_cores < next.cpu_cores || ceiling.memory_mb < next.memory_mb))
    throw new DriverFailure('INVALID_PARAMS', 'the ceiling is below the size', false);
  if (!sameSize(instance, next) || !sameCeiling(instance.ceiling, ceiling)) {
    checkRoom(guests, instance, next);
    if (guestAlive(instance.dir)) {
      instance.resume_after_resize = true;
      guests.save();
      await stopGuest(instance.dir, guests.config.AGENT_QEMU_STOP_TIMEOUT_MS);
    }
    instance.cpu_cores = next.cpu_cores;
    instance.memory_mb = next.memory_mb;
    if (ceiling) instance.ceiling = ceiling;
    else delete instance.ceiling;
    // Stopped, it holds nothing added: its next boot starts it at the new size.
    delete instance.hot_added;
    guests.save();
  }
  if (instance.resume_after_resize) {
    await guests.boot(instanceId, instance);
    delete instance.resume_after_resize;
    guests.save();
  }
}
