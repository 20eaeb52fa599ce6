import type { InstanceOperation } from './instances/operations.js';

/**
 * Workflow ids. Each instance operation has its own, derived from the operation's id: a retried
 * start of the same operation finds its run, and no two operations ever share an id (or a run's
 * agent tasks). The instance and the operation kind come first so an id reads in the Temporal UI.
 */
export const instanceOperationWorkflowId = (
  kind: InstanceOperation,
  instanceId: string,
  operationId: string,
) => `instance-${kind}-${instanceId}-${operationId}`;

export const probeHypervisorWorkflowId = (hypervisorId: string, nonce: string) =>
  `hypervisor-probe-${hypervisorId}-${nonce}`;

/** The removal of a committed migration's retained source copy, on its own timer after the commit. */
export const migrationCleanupWorkflowId = (migrationId: string) => `migration-cleanup-${migrationId}`;

/** One test, sync or rotation of a provider: the run's own row id (db provider_runs). */
export const providerRunWorkflowId = (kind: string, providerId: string, runId: string) =>
  `provider-${kind}-${providerId}-${runId}`;

/** The fetch of an ISO into an instance's library: one per ISO. */
export const isoFetchWorkflowId = (isoId: string) => `iso-fetch-${isoId}`;

/** The fetch of an image version by the hypervisors of its locations: one run at a time per version. */
export const imageDistributionWorkflowId = (versionId: string) => `image-distribution-${versionId}`;

/**
 * The fetch of an image version by one hypervisor that came online: one run at a time per version
 * and hypervisor, so an agent's repeated comebacks while it runs join it.
 */
export const imageCatchUpWorkflowId = (versionId: string, hypervisorId: string) =>
  `image-catch-up-${versionId}-${hypervisorId}`;

/**
 * The removal of a deleted version's copy from one hypervisor: one run at a time per copy, so the
 * delete, a comeback and the sweep asking at once join the run under way.
 */
export const imageRemovalWorkflowId = (versionId: string, hypervisorId: string) =>
  `image-removal-${versionId}-${hypervisorId}`;

/** A removal of an ISO's file from its hypervisor (a failed one may be asked again: a new id). */
export const isoDeleteWorkflowId = (isoId: string, nonce: string) => `iso-delete-${isoId}-${nonce}`;

/** A console session's stream, opened once: its id the session's. */
export const consoleStreamWorkflowId = (sessionId: string) => `console-stream-${sessionId}`;

/** A removal of a volume's disk from its hypervisor (a failed one may be asked again: a new id). */
export const volumeDeleteWorkflowId = (volumeId: string, nonce: string) =>
  `volume-delete-${volumeId}-${nonce}`;

/** An evacuation's run, one per evacuation: its id the evacuation's. */
export const evacuationWorkflowId = (evacuationId: string) => `evacuation-${evacuationId}`;

/** A location's reverse DNS publishing: one run at a time per location, woken by each change. */
export const reverseDnsWorkflowId = (locationId: string) => `rdns-publish-${locationId}`;
