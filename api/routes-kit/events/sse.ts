import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { StreamedEventRow } from '../../../db/repositories/events/outbox-reads.js';
import type { AppEnv } from '../../../http/context.js';
import type { OpenedStream } from '../../../services/events/open-stream.js';
import { renderEvent } from '../../../wire/events.js';
import { versionOf } from '../../middleware/api-version.js';

/** How long an EventSource waits before it reconnects (the `retry` field). */
const RECONNECT_MS = 2_000;

type EndReason = 'too_slow' | 'shutdown' | 'expired' | 'revoked';

/**
 * Writes an opened stream to its client as Server-Sent Events (docs/events.md "The stream"). Each
 * event's `id` is its `seq` and its `data` the body a webhook delivery POSTs, by the same
 * presenter. Every EVENT_STREAM_HEARTBEAT_MS it checks that the key still stands and sends a
 * comment; a write the client has not taken within that time cuts the connection, as a client
 * that reads nothing would otherwise hold it for ever.
 */
export function streamEvents(c: Context<AppEnv>, opened: OpenedStream, keyStands: () => Promise<boolean>) {
  const { config } = c.get('deps');
  const beatMs = config.EVENT_STREAM_HEARTBEAT_MS;
  const logger = c.get('logger');
  // Rendered as its webhook is: in the request's version, with the administrator's links.
  const version = versionOf(c);
  const render = (row: StreamedEventRow) => renderEvent(row, version, { links: config });
  return streamSSE(c, async (stream) => {
    const gone = new AbortController();
    stream.onAbort(() => gone.abort());
    const send = async (write: Promise<unknown>) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), beatMs);
      });
      const outcome = await Promise.race([write, late]);
      clearTimeout(timer);
      if (outcome === 'late') {
        logger.info('event stream cut: its client took nothing for a heartbeat');
        stream.abort();
        gone.abort();
      }
    };
    const end = (reason: EndReason) =>
      send(stream.writeSSE({ event: 'end', data: JSON.stringify({ reason }) }));
    try {
      await send(stream.write(`retry: ${RECONNECT_MS}\n\n`));
      if (opened.reset) {
        const { reason, horizon } = opened.reset;
        await send(
          stream.writeSSE({
            event: 'reset',
            id: String(horizon),
            data: JSON.stringify({ reason, resume_after: String(horizon) }),
          }),
        );
      }
      let beatAt = performance.now() + beatMs;
      while (!gone.signal.aborted) {
        const next = await opened.subscription.next(Math.max(0, beatAt - performance.now()), gone.signal);
        if (gone.signal.aborted) return;
        if (next.kind === 'end') return await end(next.reason);
        if (next.kind === 'events') await writeEvents(stream, next.rows, render, send);
        if (performance.now() >= beatAt) {
          beatAt = performance.now() + beatMs;
          if (!(await keyStands())) return await end('revoked');
          await send(stream.write(': heartbeat\n\n'));
        }
      }
    } catch (error) {
      logger.error('event stream failed', { error });
    } finally {
      opened.close();
    }
  });
}

async function writeEvents(
  stream: SSEStreamingApi,
  rows: readonly StreamedEventRow[],
  render: (row: StreamedEventRow) => unknown,
  send: (write: Promise<unknown>) => Promise<void>,
) {
  for (const row of rows) {
    if (stream.aborted) return;
    await send(
      stream.writeSSE({
        id: String(row.seq),
        event: row.type,
        data: JSON.stringify(render(row)),
      }),
    );
  }
}
