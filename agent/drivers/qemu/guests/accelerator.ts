import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const ACCELERATORS = ['kvm', 'tcg'] as const;
export type Accelerator = (typeof ACCELERATORS)[number];
export const ACCELERATOR_SETTINGS = ['auto', ...ACCELERATORS] as const;
export type AcceleratorSetting = (typeof ACCELERATOR_SETTINGS)[number];

/** The accelerator the guests of this host run under, and why it was chosen (logged, reported). */
export interface AcceleratorChoice {
  readonly accelerator: Accelerator;
  readonly reason: string;
}

/**
 * How long the guest kernel may take to print its first line under KVM before TCG is chosen.
 * Under working KVM it prints in well under a second; TCG boots the same kernel to that line in
 * about 0.6 s on our 2-core machines.
 */
export const PROBE_BOUND_MS = 5_000;

/** `-machine` and `-cpu` of a guest under `accel`: the probe boots with exactly what guests get. */
export const machineArguments = (accel: Accelerator): string[] => [
  '-machine',
  `q35,accel=${accel}`,
  '-cpu',
  accel === 'kvm' ? 'host' : 'max',
];

// The kernel proper's first printk line. A nested hypervisor may run the real-mode setup code
// (which prints "Probing EDD" through the BIOS) and then never run the kernel itself, so a line
// from before it proves nothing.
const KERNEL_FIRST_LINE = /Linux version \S+/;

export type BootResult =
  | { readonly ok: true; readonly ms: number; readonly line: string }
  | { readonly ok: false; readonly why: string };

/**
 * Boots `kernel` alone (no disk, no initramfs, 128 MB) under `accel` and waits up to `boundMs` for
 * the kernel's first line on the serial console; the QEMU process is ended either way.
 */
export function bootKernel(kernel: string, accel: Accelerator, boundMs: number): Promise<BootResult> {
  const started = performance.now();
  const child = spawn(
    'qemu-system-x86_64',
    [
      ...machineArguments(accel),
      '-m',
      '128',
      '-nodefaults',
      '-display',
      'none',
      '-no-reboot',
      '-kernel',
      kernel,
      '-append',
      'console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1',
      '-serial',
      'stdio',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let stdout = '';
  let stderr = '';
  return new Promise<BootResult>((resolve) => {
    let settled = false;
    // The probe's QEMU is gone before its answer is: a hung KVM guest is not left running.
    const finish = (result: BootResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      void exited.then(() => resolve(result));
    };
    const timer = setTimeout(
      () => finish({ ok: false, why: `no kernel line on the serial console within ${boundMs} ms` }),
      boundMs,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('latin1');
      const line = stdout.split('\n').find((l) => KERNEL_FIRST_LINE.test(l));
      if (line) finish({ ok: true, ms: Math.round(performance.now() - started), line: line.trim() });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', (error) => finish({ ok: false, why: error.message }));
    child.once('exit', (code, signal) =>
      finish({
        ok: false,
        why: `QEMU exited (${signal ?? code}) before the kernel printed: ${stderr.trim().slice(0, 300)}`,
      }),
    );
  });
}

/**
 * KVM when a guest really runs under it: the guest's kernel booted under KVM prints its first
 * line within `boundMs`. Otherwise TCG, slower but the same guest. On some machines /dev/kvm opens
 * and a VM and its CPU can be set up, yet no guest ever runs (nested virtualisation): only running
 * one tells.
 */
export async function probeAccelerator(
  kernel: string,
  options: { boundMs?: number; device?: string } = {},
): Promise<AcceleratorChoice> {
  const device = options.device ?? '/dev/kvm';
  if (!existsSync(device)) return { accelerator: 'tcg', reason: `${device} is absent` };
  const kvm = await bootKernel(kernel, 'kvm', options.boundMs ?? PROBE_BOUND_MS);
  return kvm.ok
    ? { accelerator: 'kvm', reason: `the guest kernel printed its first line under KVM in ${kvm.ms} ms` }
    : { accelerator: 'tcg', reason: `KVM did not run the guest kernel: ${kvm.why}` };
}

/** The accelerator of AGENT_QEMU_ACCEL: `auto` probes, `kvm` and `tcg` are taken as they are. */
export function chooseAccelerator(setting: AcceleratorSetting, kernel: string): Promise<AcceleratorChoice> {
  return setting === 'auto'
    ? probeAccelerator(kernel)
    : Promise.resolve({ accelerator: setting, reason: `AGENT_QEMU_ACCEL=${setting}` });
}
