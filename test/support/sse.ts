import { bearer } from './http.js';

/** One message of a Server-Sent Events stream as a client parses it, or a comment line. */
export interface SseMessage {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/**
 * A Server-Sent Events client over `fetch`, as an EventSource reads the stream (the WHATWG
 * parsing rules for `id`, `event`, `data` and comments), that keeps every message for the test.
 */
export interface SseClient {
  readonly status: number;
  readonly headers: Headers;
  /** Every message so far, in order. */
  readonly messages: SseMessage[];
  readonly comments: string[];
  /** Resolves when the server has ended the stream. */
  readonly ended: Promise<void>;
  /** Waits until `done(messages)` holds, at most `ms`. */
  until(done: (messages: SseMessage[]) => boolean, ms?: number): Promise<SseMessage[]>;
  /** The data of every event message (not `reset` or `end`), parsed. */
  events(): { id: string; type: string; body: Record<string, unknown> }[];
  close(): void;
}

export async function openSse(
  baseUrl: string,
  path: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}${path}`, {
    headers: { ...bearer(key), Accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };

  const ended = (async () => {
    if (!res.body || !res.headers.get('content-type')?.includes('text/event-stream')) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let fields: { id?: string; event?: string; data: string[] } = { data: [] };
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let newline = buffer.search(/\r\n|\r|\n/);
        while (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
          if (line === '') {
            if (fields.data.length > 0 || fields.id !== undefined) {
              messages.push({
                id: fields.id,
                event: fields.event ?? 'message',
                data: fields.data.join('\n'),
              });
              notify();
            }
            fields = { data: [] };
          } else if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
            notify();
          } else {
            const colon = line.indexOf(':');
            const name = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (name === 'data') fields.data.push(text);
            else if (name === 'event') fields.event = text;
            else if (name === 'id') fields.id = text;
          }
          newline = buffer.search(/\r\n|\r|\n/);
        }
      }
    } catch {
      // Aborted by `close`, or the connection was cut: the stream has ended either way.
    } finally {
      notify();
    }
  })();
  let finished = false;
  void ended.then(() => {
    finished = true;
    notify();
  });

  return {
    status: res.status,
    headers: res.headers,
    messages,
    comments,
    ended,
    until(done, ms = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (done(messages)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(messages);
          } else if (finished) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`the stream ended first; it sent ${JSON.stringify(messages)}`));
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`waited ${ms} ms; the stream sent ${JSON.stringify(messages)}`));
        }, ms);
        listeners.add(check);
        check();
      });
    },
    events() {
      return messages
        .filter((m) => m.event !== 'reset' && m.event !== 'end')
        .map((m) => ({ id: m.id ?? '', type: m.event, body: JSON.parse(m.data) as Record<string, unknown> }));
    },
    close: () => abort.abort(),
  };
}
