import type { MoveRunInput } from '../moves/run-input.js';
import type { ConvergencePolicy } from './convergence.js';

/** What a migration's run is given by the service that requested it (services/migrations/record.ts). */
export interface MigrateInstanceInput extends MoveRunInput {
  readonly migrationId: string;
  readonly sourceHypervisorId: string;
  readonly targetHypervisorId: string;
  readonly instance: {
    readonly hostname: string;
    readonly cpu_cores: number;
    readonly memory_mb: number;
    readonly disk_mb: number;
    /** The image code it was made from, for the target to check it has it; absent in older runs. */
    readonly image?: string;
    readonly ipv4: string | null;
    readonly ipv6: string | null;
    /** Whether the guest ran when the migration was requested: it runs on the target after. */
    readonly running: boolean;
  };
  /** The root disk's transfer token, sealed: it is opened only in the target's task. */
  readonly transferToken: string;
  /**
   * The move's transport key (domain/migrations/transport.ts), sealed: opened only in the
   * source's and the target's disk tasks. Absent from runs begun before moves were encrypted.
   */
  readonly transportSecret?: string;
  /**
   * The customer's volumes attached to it, which move with it: each disk's size and its own sealed
   * transfer token. Absent from runs begun before volumes moved.
   */
  readonly volumes?: readonly {
    readonly id: string;
    readonly sizeMb: number;
    readonly transferToken: string;
  }[];
  readonly retainSourceMs: number;
  /**
   * The convergence policy in force, for a live move's source and target tasks. Absent from runs
   * begun before moves had one (they ran with QEMU's own defaults).
   */
  readonly convergence?: ConvergencePolicy;
}
