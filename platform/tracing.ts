import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';

/**
 * What turns traces on, in every process's configuration (platform/config.ts, agent/config.ts;
 * docs/operations.md "Traces").
 */
export const tracingSettings = {
  TRACING_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** The collector's OTLP/HTTP base URL; spans go to `<endpoint>/v1/traces`. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().default('http://127.0.0.1:4318'),
  /**
   * The share of the traces a process begins that are recorded and exported, 0 to 1; a trace
   * continued from another process (a `traceparent`) keeps the decision it was begun with, so a
   * request's trace is whole or absent. It saves the export, not the API's CPU: traces on cost the
   * API about 45% of its peak at any ratio on Node 20 (docs/performance.md).
   */
  TRACING_SAMPLE_RATIO: z.coerce.number().min(0).max(1).default(1),
};

export type TracingSettings = z.infer<z.ZodObject<typeof tracingSettings>>;

/** One process's traces: its tracer, and what the Temporal worker plugin exports workflow spans with. */
export interface Tracing {
  readonly tracer: Tracer;
  readonly resource: Resource;
  readonly processor: SpanProcessor;
  /** Sends what is buffered (the processor batches for up to a second). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let contextInstalled = false;

/**
 * The context that carries the active span through awaits, and the W3C `traceparent` header that
 * carries it between processes: installed once per process, and only when traces are on (the
 * AsyncLocalStorage it runs on costs every request a little).
 */
function installContext(): void {
  if (contextInstalled) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  contextInstalled = true;
}

/** The active span's W3C `traceparent`, to hand to another process; null when nothing traces. */
export function activeTraceParent(): string | null {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Sets the active span's `traceparent` on an outgoing request (nothing when nothing traces). */
export function injectTraceParent(headers: Headers): void {
  const traceParent = activeTraceParent();
  if (traceParent) headers.set('traceparent', traceParent);
}

/**
 * Runs `work` as a span named `name` of the trace `parent` (a `traceparent` another process handed
 * over), or of a trace of its own; just runs it when `tracing` is off.
 */
export function inSpan<T>(
  tracing: Tracing | undefined,
  name: string,
  parent: string | null,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracing) return work();
  const parentContext = parent ? propagation.extract(ROOT_CONTEXT, { traceparent: parent }) : ROOT_CONTEXT;
  return tracing.tracer.startActiveSpan(
    name,
    { kind: SpanKind.CONSUMER, attributes },
    parentContext,
    async (span) => {
      try {
        return await work();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * The traces of `service` (cloudsvc-api, cloudsvc-worker, cloudsvc-agent), exported over OTLP/HTTP
 * in batches; undefined while TRACING_ENABLED is off. Each process holds its own provider rather
 * than a global one, so that processes sharing one Node (the tests' stack) still name themselves.
 */
export function startTracing(settings: TracingSettings, service: string): Tracing | undefined {
  if (!settings.TRACING_ENABLED) return undefined;
  installContext();
  const resource = new Resource({ 'service.name': service });
  const exporter = new OTLPTraceExporter({
    url: `${settings.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces`,
  });
  const processor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 });
  const sampler = new ParentBasedSampler({
    root: new TraceIdRatioBasedSampler(settings.TRACING_SAMPLE_RATIO),
  });
  const provider = new BasicTracerProvider({ resource, sampler, spanProcessors: [processor] });
  return {
    tracer: provider.getTracer('cloudsvc'),
    resource,
    processor,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
