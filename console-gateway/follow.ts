import type { Logger } from '../platform/logger.js';
import type { GatewayConfig } from './config.js';
import type { PanelClient } from './panel.js';
import type { Relays } from './relays.js';

/**
 * The gateway's two loops with the panel: a heartbeat (its relay URL, the sessions it holds; the
 * answer names those ended) and the endings feed, read from where it stood at start. A session the
 * panel ended is cut without telling the panel again. The first heartbeat is sent before the
 * gateway serves: `validate` refuses a gateway whose relay URL the panel does not know.
 */
export async function followPanel(input: {
  config: GatewayConfig;
  panel: PanelClient;
  relays: Relays;
  relayUrl: string;
  logger: Logger;
  cut: (sessionId: string, reason: string, report: boolean) => void;
}) {
  const { config, panel, relays, relayUrl, logger, cut } = input;
  const beat = async () => {
    for (const ended of await panel.heartbeat(relayUrl, relays.ids()))
      cut(ended.session, ended.reason, false);
  };
  await beat();
  let { cursor } = await panel.revocations();
  let reading = false;
  const read = async () => {
    if (reading) return;
    reading = true;
    try {
      for (;;) {
        const page = await panel.revocations(cursor);
        for (const ending of page.data) cut(ending.session, ending.reason, false);
        cursor = page.cursor;
        if (page.data.length < 500) break;
      }
    } finally {
      reading = false;
    }
  };
  const warn = (what: string) => (error: unknown) =>
    logger.warn(`console gateway: ${what} failed`, { error });
  const heartbeats = setInterval(() => beat().catch(warn('heartbeat')), config.GATEWAY_HEARTBEAT_MS);
  const feed = setInterval(() => read().catch(warn('reading the endings feed')), config.GATEWAY_FEED_MS);
  return {
    stop(): void {
      clearInterval(heartbeats);
      clearInterval(feed);
    },
  };
}
