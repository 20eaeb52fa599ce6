import type { ProdShape } from '../../test/support/prod-shape/shape.js';
import { SoakClient } from './client.js';
import { pickByWeight } from './mix.js';

/**
 * The soak's clients: each draws an operation from the mix (mix.ts) and an instance no other
 * client is using, so that none is refused for another's sake, one operation after another.
 */
export class Soak {
  readonly #client: SoakClient;
  readonly #free: string[];
  #stopping = false;

  constructor(shape: ProdShape, instances: readonly string[]) {
    this.#client = new SoakClient(shape);
    this.#free = [...instances];
  }

  /** Each operation's times and failures so far. */
  get tallies() {
    return this.#client.tallies;
  }

  /** Runs `clients` loops until `stop()`. */
  async run(clients: number): Promise<void> {
    await Promise.all(Array.from({ length: clients }, () => this.#loop()));
  }

  stop(): void {
    this.#stopping = true;
  }

  async #loop(): Promise<void> {
    while (!this.#stopping) {
      const operation = pickByWeight();
      const instance = this.#free.splice(Math.floor(Math.random() * this.#free.length), 1)[0];
      if (!instance) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      try {
        await operation(this.#client, instance);
      } finally {
        this.#free.push(instance);
      }
    }
  }
}
