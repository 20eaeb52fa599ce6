import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { listEventPage } from '../../../services/events/list.js';
import { openEventStream } from '../../../services/events/open-stream.js';
import { EventQuery, EventStreamHeaders, eventFilterOf } from '../../../wire/requests/events.js';
import {
  commonErrors,
  goneResponse,
  rateLimitedResponse,
  unavailableResponse,
} from '../../../wire/schemas.js';
import { EventListEnvelope, eventListBody } from '../../../wire/serializers/events/event.js';
import { z } from '../../../wire/zod.js';
import { keyOf } from '../../auth/principals.js';
import { versionOf } from '../../middleware/api-version.js';
import type { EventSide } from './side.js';
import { streamEvents } from './sse.js';

const SSE_EXAMPLE =
  'retry: 2000\n\n' +
  'id: 1042\nevent: instance.running\ndata: {"id":"6f1c2a9e-…","type":"instance.running","version":1,…}\n\n' +
  ': heartbeat\n\n' +
  'event: end\ndata: {"reason":"too_slow"}\n\n';

const route = (side: EventSide) =>
  createRoute({
    method: 'get',
    path: '/events',
    tags: ['Events'],
    summary: 'Events: a stream (Server-Sent Events) or a list',
    description:
      `${side.shows} Asked with \`Accept: text/event-stream\`, a stream: each event as \`id: <seq>\`, ` +
      '`event: <type>` and `data: <the webhook body>`, in the order they committed, with a `: heartbeat` ' +
      'comment every `EVENT_STREAM_HEARTBEAT_MS` (15 s). It resumes after `Last-Event-ID` (or `after`) while ' +
      'the events after it are kept (`EVENT_RETENTION_DAYS`, 30); otherwise it begins with `event: reset` and ' +
      'goes on from now. It ends with `event: end` and a reason: `too_slow` (more than `EVENT_STREAM_BUFFER` ' +
      'events waited for the client), `shutdown`, `expired` or `revoked` (the key, within the heartbeat plus ' +
      '`AUTH_CACHE_TTL_MS`); reconnecting with `Last-Event-ID` misses nothing. At most `EVENT_STREAMS_PER_KEY` ' +
      '(5) streams per key and API process (SVC-REQ-429). Otherwise, a page of events as JSON, oldest first, ' +
      'after `after` (from the oldest kept without it); pass `meta.next_after` back as `after` to read on ' +
      '(docs/events.md).',
    request: { query: EventQuery, headers: EventStreamHeaders },
    responses: {
      200: {
        description: 'The stream (text/event-stream), or a page of events (application/json).',
        content: {
          'application/json': { schema: EventListEnvelope },
          'text/event-stream': {
            schema: z.string().openapi({ description: 'Server-Sent Events.', example: SSE_EXAMPLE }),
          },
        },
      },
      ...commonErrors,
      ...goneResponse('`after` lies below the retention floor: events after it may be gone (SVC-EVENT-410).'),
      ...rateLimitedResponse,
      ...unavailableResponse('The process has not read the outbox yet (SVC-SYS-503); try again shortly.'),
    },
  });

const wantsStream = (accept: string | undefined) => accept?.includes('text/event-stream') ?? false;

export function register(app: OpenAPIHono<AppEnv>, side: EventSide): void {
  app.openapi(route(side), async (c) => {
    const query = c.req.valid('query');
    const filter = eventFilterOf(side.readerOf(c), query);
    const deps = c.get('deps');
    if (wantsStream(c.req.header('accept'))) {
      const key = keyOf(c);
      const opened = await openEventStream(deps, {
        keyId: key.credentialId,
        filter,
        lastEventId: c.req.valid('header')['last-event-id'] ?? query.after,
      });
      return streamEvents(
        c,
        opened,
        async () => (await deps.credentials.resolve(key.token))?.id === key.credentialId,
      );
    }
    const page = await listEventPage(deps, filter, { after: query.after, limit: query.limit });
    // Each event says the version it is rendered in (`api_version`), as its webhook does.
    c.set('renderedInVersion', true);
    return c.json(eventListBody(page, versionOf(c), { links: deps.config }), 200);
  });
}
