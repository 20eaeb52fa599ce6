import type { DemoInstance } from './demo-instance.js';
import { data, logs, say } from './settings.js';

export interface BannerFacts {
  readonly apiUrl: string;
  /** The API's Prometheus metrics. */
  readonly metricsUrl: string;
  /** Where spans go, when TRACING_ENABLED is on. */
  readonly tracesUrl: string | undefined;
  readonly temporalUi: string | undefined;
  readonly keys: { client: string; application: string };
  readonly realGuests: boolean;
  readonly instance: DemoInstance;
  /** The plan and location codes the README's examples use. */
  readonly plan: string;
  readonly location: string;
}

/** What the newcomer needs to go on: where everything is, the demo's keys, instance and codes. */
export function printBanner(facts: BannerFacts): void {
  const { apiUrl, keys, instance } = facts;
  say(`
cloudsvc is running.

  API base URL      ${apiUrl}
    Client API      ${apiUrl}/api/client/cloud
    Application API ${apiUrl}/api/application/cloudsvc
    API reference   ${apiUrl}/docs
  Admin pages       ${apiUrl}/admin/cloudsvc/migrations (sign in with the application key)
  Metrics           ${facts.metricsUrl} (Prometheus)${
    facts.tracesUrl
      ? `
  Traces            ${facts.tracesUrl} (OTLP/HTTP)`
      : ''
  }
  Temporal UI       ${facts.temporalUi ?? '(external Temporal: see its own UI)'}
  Client key        ${keys.client}
  Application key   ${keys.application}
  Demo instance     ${instance.uuid} (${instance.status})
  Plan, location    ${facts.plan}, ${facts.location}${
    facts.realGuests
      ? `
  Hypervisors       demo-hv-1, demo-hv-2: real guests (QEMU), consoles in ${data}/agent*/{guests,incoming}/*/console.log`
      : ''
  }

  Try: curl -H "Authorization: Bearer ${keys.client}" ${apiUrl}/api/client/cloud/${instance.uuid}

Data in ${data} (logs in ${logs}). Ctrl-C stops everything.`);
}
