import type { EvacuationPolicy } from './states.js';

/** The states an evacuation's run is in while it runs. */
export type EvacuationRunState = 'running' | 'paused' | 'cancelling';

/** What an evacuation's run is given by the service that started it (services/evacuations/start.ts). */
export interface EvacuateHypervisorInput {
  readonly evacuationId: string;
  readonly hypervisorId: string;
  readonly policy: EvacuationPolicy;
  /** How often the run reads its migrations' states besides being woken by their ends. */
  readonly checkEveryMs: number;
  /** Moves the run starts before it continues as new. */
  readonly movesPerRun: number;
  /** What a run continued as new carries over: the state an administrator left it in. */
  readonly carried?: { readonly state: EvacuationRunState };
}
