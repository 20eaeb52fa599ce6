import { Context } from '@temporalio/activity';
import type { Database } from '../db/database.js';
import { claimImageRemoval, settleImageRemoval } from '../db/repositories/catalogue/image-copy-removals.js';
import {
  claimImageFetch,
  claimImageFetches,
  settleImageFetch,
} from '../db/repositories/catalogue/image-version-hosts.js';

/** The workflow id of the run calling: the copies it fetches are named after it. */
function callingRun(): string {
  const run = Context.current().info.workflowExecution?.workflowId;
  if (!run) throw new Error('an image fetch is claimed by a workflow run only');
  return run;
}

/**
 * Bookkeeping of an image version's distribution and of a deleted version's removal; each is
 * idempotent (only a fetching copy, or a removal under way, settles).
 */
export function createImageActivities(db: Database) {
  return {
    /** The online hypervisors of the version's locations that fetch it now, their copies `fetching`. */
    async claimImageFetches(record: { versionId: string }): Promise<string[]> {
      return claimImageFetches(db, record.versionId, callingRun());
    },

    /** Whether the hypervisor fetches the version now (it lacks it and is online), its copy then `fetching`. */
    async claimImageFetch(record: { versionId: string; hypervisorId: string }): Promise<boolean> {
      return claimImageFetch(db, record, callingRun());
    },

    async recordImageFetched(record: {
      versionId: string;
      hypervisorId: string;
      sizeMb: number;
    }): Promise<void> {
      await settleImageFetch(db, record, { state: 'ready', sizeMb: record.sizeMb });
    },

    async recordImageFetchFailed(record: {
      versionId: string;
      hypervisorId: string;
      error: { code: string; message: string };
    }): Promise<void> {
      await settleImageFetch(db, record, { state: 'failed', error: record.error });
    },

    /** Whether the hypervisor is asked now to remove the deleted version's copy (outstanding, and it is online). */
    async claimImageRemoval(record: { versionId: string; hypervisorId: string }): Promise<boolean> {
      return claimImageRemoval(db, record);
    },

    async recordImageRemoved(record: { versionId: string; hypervisorId: string }): Promise<void> {
      await settleImageRemoval(db, record, { removed: true });
    },

    /** `blocked` while a guest uses the copy, `pending` again otherwise; the reason kept. */
    async recordImageRemovalFailed(record: {
      versionId: string;
      hypervisorId: string;
      error: { code: string; message: string };
    }): Promise<void> {
      await settleImageRemoval(db, record, { removed: false, error: record.error });
    },
  };
}
