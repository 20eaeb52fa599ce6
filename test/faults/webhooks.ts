import { expect } from 'vitest';
import { insertInstance } from '../../db/repositories/instances/instances.js';
import { eventually } from '../support/eventually.js';
import type { ProdShape } from '../support/prod-shape/shape.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// What the fault tests of outbound events share (docs/events.md "Delivery"): a plane endpoint at a
// receiver of the test's that takes each webhook-id once, and changes made through the API whose
// events it waits for.

/** The shape's settings for them: the receiver on loopback, and retries seconds apart, not minutes. */
export const WEBHOOK_FAULT_SETTINGS = {
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  WEBHOOK_RETRY_INITIAL_MS: '200',
  WEBHOOK_RETRY_MAX_INTERVAL_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '3000',
};

const TYPES = ['instance.suspended', 'instance.unsuspended'] as const;

/**
 * A receiver of the test's, and the plane's endpoint at it for suspensions, registered through the
 * API; `stop` deletes the endpoint (so that no later test's events are retried to a closed port)
 * and closes the receiver.
 */
export async function watchSuspensions(shape: ProdShape) {
  const receiver = await startWebhookReceiver();
  const created = await shape.application.POST('/webhooks', {
    body: { url: receiver.url(), event_types: [...TYPES] },
  });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  const { uuid, secret } = created.data!.attributes;
  receiver.trust(secret);
  return {
    receiver,
    async stop() {
      await shape.application.DELETE('/webhooks/{webhookUuid}', { params: { path: { webhookUuid: uuid } } });
      await receiver.close();
    },
  };
}

/**
 * `count` instances of the demo customer's, stopped and on no hypervisor: a suspension of one is
 * one transaction and one event, and no agent is asked anything.
 */
export async function quietInstances(shape: ProdShape, count: number, name: string): Promise<string[]> {
  const demo = await shape.db
    .selectFrom('instances')
    .select(['user_id', 'location_id'])
    .where('id', '=', shape.demoInstance)
    .executeTakeFirstOrThrow();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = await insertInstance(shape.db, {
      user_id: demo.user_id,
      location_id: demo.location_id,
      name: `${name}-${i}`,
      hostname: `${name}-${i}.faults.test`,
      status: 'stopped',
      cpu_cores: 1,
      memory_mb: 512,
      disk_mb: 2048,
      primary_ipv4: null,
      primary_ipv6: null,
      virtualization: 'kvm',
      boot_order: JSON.stringify(['disk']),
    });
    ids.push(row.id);
  }
  return ids;
}

/** Suspends the instance, or lifts its suspension, through `api` (the proxy's, or one process's). */
export async function toggleSuspension(
  api: ProdShape['application'],
  instance: string,
  suspend: boolean,
): Promise<void> {
  const path = suspend ? '/instances/{instance}/suspend' : '/instances/{instance}/unsuspend';
  const { response } = await api.POST(path, { params: { path: { instance } } });
  expect(response.status).toBe(200);
}

/** The ids of the suspension events recorded for these instances. */
export async function suspensionEvents(shape: ProdShape, instances: readonly string[]): Promise<string[]> {
  const rows = await shape.db
    .selectFrom('outbox_events')
    .select('id')
    .where('resource_id', 'in', [...instances])
    .where('type', 'in', [...TYPES])
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * What the receiver made of these events: the ids it took (each once, whatever was sent again),
 * those it never took, and how many were taken more than once (at least once allows it).
 */
export function tally(receiver: WebhookReceiver, events: readonly string[]) {
  const takes = new Map<string, number>();
  for (const r of receiver.received) {
    const id = String(r.headers['webhook-id']);
    if (r.status < 300) takes.set(id, (takes.get(id) ?? 0) + 1);
  }
  const missing = events.filter((id) => !receiver.accepted.has(id));
  return {
    accepted: events.length - missing.length,
    missing,
    sentAgain: events.filter((id) => (takes.get(id) ?? 0) > 1).length,
  };
}

/** Resolves once the receiver has taken every one of the events, or with what it lacks after `timeoutMs`. */
export async function allTaken(receiver: WebhookReceiver, events: readonly string[], timeoutMs = 60_000) {
  await eventually(
    () => events.every((id) => receiver.accepted.has(id)),
    timeoutMs,
    'every event taken',
  ).catch(() => undefined);
  return tally(receiver, events);
}
