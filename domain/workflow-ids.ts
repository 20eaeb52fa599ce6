/**
 * Workflow ids derived from what they act on, so a second start of the same operation finds the
 * first (SPEC.md §1: at most one power action, one provisioning per instance at a time).
 */
export const powerInstanceWorkflowId = (instanceId: string) => `instance-power-${instanceId}`;
export const provisionInstanceWorkflowId = (instanceId: string) => `instance-provision-${instanceId}`;
export const probeHypervisorWorkflowId = (hypervisorId: string, nonce: string) =>
  `hypervisor-probe-${hypervisorId}-${nonce}`;
