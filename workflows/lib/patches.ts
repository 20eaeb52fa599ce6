/**
 * Every `patched()` id the workflows use, in one place: what runs begun before it do instead, when
 * it landed, and what retires it. A workflow calls `patched(PATCHES.<name>.id)`, never a literal
 * (test/workflows/patches.unit.test.ts holds every call to this table).
 *
 * Retiring a patch (docs/operations.md, "Changing a workflow"): once no running history can be
 * older than it (the longest a run of that type lives: a migration's recovery wait has no end, so
 * ask Temporal with `cloudsvc workflow:replay --query`), replace `patched(id)` by
 * `deprecatePatch(id)` and keep only the new path; once no history holds the marker either, remove
 * the call and the entry, and the replay fixtures recorded before the patch with it.
 */
export const PATCHES = {
  recordsFirewall: {
    id: 'provision-records-firewall',
    since: '2026-11-25',
    before: 'provisioning did not record the firewall revision the hypervisor applied',
  },
  migrationSettlesFromHypervisor: {
    id: 'migration-settles-from-hypervisor',
    since: '2026-11-25',
    before: 'an ending that gives the source back assumed its power state instead of asking it',
  },
  migrationCommitFromHypervisor: {
    id: 'migration-commit-from-hypervisor',
    since: '2026-11-25',
    before: 'the commit assumed the target guest ran instead of asking it',
  },
  operationFailureSettlesFromHypervisor: {
    id: 'operation-failure-settles-from-hypervisor',
    since: '2026-11-25',
    before: 'a failed operation put the instance back to its earlier status without asking the guest',
  },
  migrationCleanupOfItsOwn: {
    id: 'migration-cleanup-of-its-own',
    since: '2026-11-25',
    before: 'the old source was cleaned up inside the migration, not by a workflow of its own',
  },
  migrationCarriesNetwork: {
    id: 'migration-carries-network',
    since: '2026-11-25',
    before: 'a migration did not carry the instance network and firewall to the target',
  },
  migrationOutcomeInStatus: {
    id: 'migration-outcome-in-status',
    since: '2026-11-25',
    before: "a rolled-back migration ended completed in Temporal's status",
  },
  migrationRenewalStoppedAtEnd: {
    id: 'migration-renewal-stopped-at-end',
    since: '2026-11-25',
    before: 'the lease renewal was left running at the end',
  },
  migrationWithdrawsOffers: {
    id: 'migration-withdraws-offers',
    since: '2026-11-26',
    before: "a rollback did not withdraw the source's disk offers",
  },
  migrationRecordsInterruption: {
    id: 'migration-records-interruption',
    since: '2026-11-28',
    before: 'a migration did not record the interruption its guest had',
  },
  migrationRefusedDecisionWaits: {
    id: 'migration-refused-decision-waits',
    since: '2026-11-28',
    before:
      "an operator's source_authoritative whose target did not discard its copy ended ROLLED_BACK all the same (the move kit: a refused decision leaves the move waiting)",
  },
  migrationRollbackEndsAtOnce: {
    id: 'migration-rollback-ends-at-once',
    since: '2026-11-28',
    before:
      "an administrator's rollback (not a cancel) ended the run only after 30 s of waiting for a Temporal cancel",
  },
  storageMoveLeaseRenewal: {
    id: 'storage-move-lease-renewal',
    since: '2026-11-28',
    before:
      'a storage move renewed its lease on a timer of its own that the commit cut short (move-instance-storage/lease-before-the-kit.ts)',
  },
  storageMoveLeaseLossReportedOnce: {
    id: 'storage-move-lease-loss-reported-once',
    since: '2026-11-28',
    before:
      'a storage move that lost its lease failed on it at every step until the commit, so past the switch only source_authoritative could end it',
  },
  storageMoveOutcomeInStatus: {
    id: 'storage-move-outcome-in-status',
    since: '2026-11-28',
    before: "a cancelled storage move ended failed in Temporal's status (type CANCELLED), not cancelled",
  },
  migrationReleasesCopyOnTarget: {
    id: 'migration-releases-copy-on-target',
    since: '2026-11-29',
    before:
      'a committed migration left the copy an earlier migration retained on its target to that copy’s own timer (a move back was refused until it was gone)',
  },
  migrationConvergencePolicy: {
    id: 'migration-convergence-policy',
    since: '2026-11-29',
    before:
      "a live move's tasks carried no convergence policy: the hypervisor moved the memory with its own defaults",
  },
  migrationTurnsAtSwitch: {
    id: 'migration-turns-at-switch',
    since: '2026-11-29',
    before:
      'entering LIVE_MIGRATING was a live move’s point of no return: a cancel there was refused and any failure of the live step waited for an operator, even with the guest still running on the source',
  },
  provisionRecordsCeiling: {
    id: 'provision-records-ceiling',
    since: '2026-11-29',
    before: 'provisioning did not record the room to grow the hypervisor booted the guest with',
  },
  migrationLiveStepFollowsPolicy: {
    id: 'migration-live-step-follows-policy',
    since: '2026-11-29',
    before:
      'a live move’s step had a long step’s 3 hours whatever its completion timeout: a guest above about 13 GiB at 800 s per GiB had its step time out before its policy gave the move up',
  },
} as const satisfies Record<string, { id: string; since: string; before: string }>;
