import { operationEnded } from '../../test/faults/operations.js';
import type { ProdShape } from '../../test/support/prod-shape/shape.js';

/** Every try of one operation: how long each took, and why each that failed did. */
export interface OperationTally {
  readonly ms: number[];
  readonly failures: string[];
}

/** What the soak's clients share: the shape, and the tally of every operation they timed. */
export class SoakClient {
  readonly tallies = new Map<string, OperationTally>();

  constructor(readonly shape: ProdShape) {}

  get customer() {
    return this.shape.customer;
  }

  /** Times `work` under `name`; a failure is tallied with its reason, not thrown. */
  async timed(name: string, work: () => Promise<unknown>): Promise<boolean> {
    const tally = this.tallies.get(name) ?? { ms: [], failures: [] };
    this.tallies.set(name, tally);
    const started = performance.now();
    try {
      await work();
      tally.ms.push(performance.now() - started);
      return true;
    } catch (error) {
      tally.failures.push((error as Error).message);
      return false;
    }
  }

  /** Throws unless the answer is a success; resolves with its body. */
  async ok<T>(answer: Promise<{ data?: T; response: Response; error?: unknown }>): Promise<T> {
    const { data, response, error } = await answer;
    if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(error).slice(0, 200)}`);
    return data as T;
  }

  /** Resolves once the instance's latest operation has ended; throws unless it succeeded. */
  async ended(instance: string): Promise<void> {
    const { state } = await operationEnded(this.shape, instance, 300_000);
    if (state !== 'succeeded') throw new Error(`the operation ended ${state}`);
  }
}
