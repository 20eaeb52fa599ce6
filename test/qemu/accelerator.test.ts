import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { configuredKernel, FAST_IMAGE, qemuGuestsMissing } from '../../agent/drivers/qemu/availability.js';
import { bootKernel, PROBE_BOUND_MS, probeAccelerator } from '../../agent/drivers/qemu/guests/accelerator.js';
import { qemuAccelerator } from '../support/qemu-hosts.js';

/**
 * The accelerator probe on the machine the suite runs on: whatever it chooses must run a guest.
 * Where /dev/kvm is absent it must say TCG; where KVM opens but hangs guests, TCG too; where KVM
 * works, KVM.
 */
const missing = qemuGuestsMissing();

describe.runIf(!missing)('the QEMU accelerator probe', () => {
  const kernel = () => configuredKernel(FAST_IMAGE)!;

  it('chooses an accelerator under which the guest kernel prints its first line within the bound, twice alike', async () => {
    const first = await probeAccelerator(kernel());
    const second = await probeAccelerator(kernel());
    expect(second.accelerator).toBe(first.accelerator);
    // The run's one probe, which every guest of the suite boots under, chose the same.
    expect(qemuAccelerator()).toBe(first.accelerator);
    for (const choice of [first, second]) {
      const boot = await bootKernel(kernel(), choice.accelerator, PROBE_BOUND_MS);
      expect(boot, `${choice.accelerator}: ${choice.reason}`).toMatchObject({ ok: true });
      if (boot.ok) expect(boot.line).toMatch(/Linux version/);
    }
  });

  it('chooses TCG, saying why, when the KVM device is absent', async () => {
    const choice = await probeAccelerator(kernel(), { device: '/nonexistent/kvm' });
    expect(choice).toEqual({ accelerator: 'tcg', reason: '/nonexistent/kvm is absent' });
  });

  it('two probes at once agree and leave no QEMU behind', async () => {
    const [a, b] = await Promise.all([probeAccelerator(kernel()), probeAccelerator(kernel())]);
    expect(a.accelerator).toBe(b.accelerator);
    const left = spawnSync('pgrep', ['-f', '--', `-kernel ${kernel()} -append console=ttyS0 earlyprintk`], {
      encoding: 'utf8',
    });
    expect(left.stdout.trim()).toBe('');
  });

  it('reports a kernel that never prints as a failure within the bound', async () => {
    // /dev/null as a kernel: QEMU refuses it before any line, and the probe says so.
    const boot = await bootKernel('/dev/null', 'tcg', PROBE_BOUND_MS);
    expect(boot.ok).toBe(false);
    if (!boot.ok) expect(boot.why).toMatch(/QEMU exited|no kernel line/);
  });
});
