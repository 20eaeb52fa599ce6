import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP exporter sent it, with its service and its attributes flattened. */
export interface CollectedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly service: string;
  readonly attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
}

const flat = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue,
    ]),
  );

/**
 * What a collector's OTLP/HTTP receiver takes (`POST /v1/traces`, JSON), kept in memory for a test
 * to read: the spans cloudsvc's processes export when TRACING_ENABLED points them here.
 */
export async function startOtlpCollector() {
  const spans: CollectedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (
        req.method !== 'POST' ||
        req.url !== '/v1/traces' ||
        !req.headers['content-type']?.includes('json')
      ) {
        res.writeHead(415).end();
        return;
      }
      const sent = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resource of sent.resourceSpans ?? []) {
        const service = String(flat(resource.resource?.attributes)['service.name']);
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              service,
              attributes: flat(span.attributes),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    /** The span and its ancestors, the span first, as far up as the collector has them. */
    lineage(span: CollectedSpan): CollectedSpan[] {
      const chain = [span];
      for (;;) {
        const child = chain.at(-1)!;
        const parent = spans.find((s) => s.traceId === child.traceId && s.spanId === child.parentSpanId);
        if (!parent) return chain;
        chain.push(parent);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Exporters keep their connections alive: the receiver goes away as a collector would.
        server.closeAllConnections();
      }),
  };
}
