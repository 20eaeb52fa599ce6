import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { DEMO } from '../../db/seeds/demo.js';
import { eventually } from '../support/eventually.js';
import type { ProdShape } from '../support/prod-shape/shape.js';

/** A customer's order of a new instance (the demo's plan, image and location); answers its id. */
export async function order(shape: ProdShape, name: string): Promise<string> {
  const asked = await shape.customer.POST('/', {
    params: { header: { 'idempotency-key': randomUUID() } },
    body: {
      name,
      hostname: `${name}.faults.test`,
      plan: DEMO.plan.code,
      image: DEMO.image.code,
      location: DEMO.location.code,
    },
  });
  expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
  return asked.data!.attributes.uuid;
}

/** A customer's backup of the instance. */
export async function backUp(shape: ProdShape, instance: string): Promise<void> {
  const asked = await shape.customer.POST('/{cloudInstance}/backups', {
    params: { path: { cloudInstance: instance } },
    body: {},
  });
  expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
}

/** The instance's latest operation: its kind and state. */
export const latestOperation = (shape: ProdShape, instance: string) =>
  shape.db
    .selectFrom('instance_operations')
    .select(['kind', 'state', 'outcome', 'workflow_id'])
    .where('instance_id', '=', instance)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();

/** Resolves once the instance's latest operation has ended, with where it ended. */
export const operationEnded = (shape: ProdShape, instance: string, timeoutMs = 180_000) =>
  eventually(
    async () => {
      const latest = await latestOperation(shape, instance);
      return latest.state === 'running' ? undefined : latest;
    },
    timeoutMs,
    `the operation on ${instance} to end`,
  );

/** Resolves once the instance runs, as the panel says. */
export const running = (shape: ProdShape, instance: string) =>
  eventually(
    async () =>
      (
        await shape.db
          .selectFrom('instances')
          .select('status')
          .where('id', '=', instance)
          .executeTakeFirstOrThrow()
      ).status === 'running',
    120_000,
    `${instance} to run`,
  );
