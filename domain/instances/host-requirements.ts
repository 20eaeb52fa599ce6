/**
 * What binds an instance to the hypervisor it runs on (SPEC.md §3 "Migration modes"): each is set
 * by an administrator on the plan (for the instances created from it) or on the instance, and
 * each makes its own preflight blocker (domain/migrations/preflight.ts).
 */
export const HOST_REQUIREMENTS = [
  'cpu_host_passthrough',
  'gpu_passthrough',
  'pci_passthrough',
  'numa_pinning',
  'hugepages',
] as const;
export type HostRequirement = (typeof HOST_REQUIREMENTS)[number];
