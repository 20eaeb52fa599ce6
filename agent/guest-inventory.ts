import { answered } from '../clients/answered.js';
import type { GuestReport, HypervisorDriver } from './drivers/driver.js';
import type { PanelClient } from './panel-client.js';

/**
 * Tells the panel which guests the host really holds: at start, whenever they change, and at
 * least every `everyMs`. Looking is local and cheap, so it happens every heartbeat; a report goes
 * out only when there is news, the interval is up, or the panel deferred part of the last one, so
 * the heartbeat costs the panel nothing more.
 */
export class GuestInventory {
  #lastSent: string | undefined;
  #lastSentAt = 0;

  constructor(
    private readonly driver: HypervisorDriver,
    private readonly panel: PanelClient,
    private readonly everyMs: number,
  ) {}

  async report(): Promise<void> {
    const guests = sortedGuests(await this.driver.guests());
    const key = JSON.stringify(guests);
    if (key === this.#lastSent && Date.now() - this.#lastSentAt < this.everyMs) return;
    const ack = answered(await this.panel.api.POST('/inventory', { body: { guests } }));
    // Deferred: the panel could not judge yet (a record just changed), so the next look goes too.
    this.#lastSent = ack.attributes.deferred > 0 ? undefined : key;
    this.#lastSentAt = Date.now();
  }
}

const sortedGuests = (guests: GuestReport[]) =>
  [...guests].sort((a, b) => a.instance_uuid.localeCompare(b.instance_uuid));
