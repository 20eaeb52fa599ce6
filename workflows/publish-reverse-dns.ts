import {
  ActivityFailure,
  continueAsNew,
  defineSignal,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { REVERSE_DNS_CHANGED_SIGNAL, type ReverseDnsChanged } from '../domain/dns/publishing.js';
import { step } from './lib/operation.js';
import { dnsStep } from './lib/steps.js';

export interface PublishReverseDnsInput {
  readonly locationId: string;
  /** A resync was asked for before this run began (carried over a continue-as-new). */
  readonly resync: boolean;
}

export const reverseDnsChanged = defineSignal<[ReverseDnsChanged]>(REVERSE_DNS_CHANGED_SIGNAL);

/**
 * Runbook, one run per location at a time (its id the location's), woken by a signal with every
 * change: on a resync, remove the stale records from the provider's zones; then push every record
 * not yet published; again while changes keep arriving. One run per location means two pushes for
 * one address never race. A push the DNS server did not take is retried by the step's policy; once
 * that is spent the records stay `failed` and the next change or a resync tries again.
 */
export async function publishReverseDns(input: PublishReverseDnsInput): Promise<void> {
  let resync = input.resync;
  let again = true;
  setHandler(reverseDnsChanged, (change) => {
    again = true;
    if (change.resync) resync = true;
  });
  const dns = dnsStep();
  while (again) {
    again = false;
    try {
      if (resync) {
        resync = false;
        step('Removing the records the panel no longer has');
        await dns.pruneReverseZones(input.locationId);
      }
      step('Publishing the changed records');
      await dns.publishReverseRecords(input.locationId);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      // The records keep the `failed` state the last attempt recorded, with its reason.
      log.warn('reverse DNS not published; the next change or a resync tries again', {
        locationId: input.locationId,
      });
    }
    if (again && workflowInfo().continueAsNewSuggested)
      await continueAsNew<typeof publishReverseDns>({ locationId: input.locationId, resync });
  }
}
