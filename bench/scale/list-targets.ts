/**
 * The lists the scale bench reads: the customer's instances and an instance's activity, the
 * administrators' instances and migrations whole and filtered; each with the query of its rows in
 * its own order, from which the bench takes the cursors of deep pages.
 */
import { type RawBuilder, sql } from 'kysely';
import type { BenchStack } from '../stack.js';
import type { ListPlane, ListSize } from './list-seed.js';
import { count } from './report.js';

export interface ListTarget {
  readonly label: string;
  /** The list's path and filters; the page's query is added. */
  readonly url: string;
  readonly key: string;
  /** The list's rows in its order's columns, newest first: `at` and `id`. */
  readonly rows: RawBuilder<{ at_micros: string; id: string }>;
  /** How the size is told for this list. */
  readonly sizeOf: (size: ListSize) => string;
}

export function targets(stack: BenchStack, plane: ListPlane): ListTarget[] {
  const app = `${stack.apiUrl}/api/application/cloudsvc/instances`;
  const admin = `${stack.apiUrl}/admin/cloudsvc/migrations`;
  const micros = sql`(extract(epoch from created_at) * 1000000)::bigint::text`;
  const instances = (where: RawBuilder<unknown>) =>
    sql<{ at_micros: string; id: string }>`select ${micros} as at_micros, id::text from instances
      where deleted_at is null and ${where} order by created_at desc, id desc`;
  const migrations = (where: RawBuilder<unknown>) =>
    sql<{ at_micros: string; id: string }>`select ${micros} as at_micros, id::text from migrations
      where ${where} order by created_at desc, id desc`;
  const ofInstances = (s: ListSize) => `${count(s.instances)} instances`;
  const ofMigrations = (s: ListSize) => `${count(s.migrations)} migrations`;
  return [
    {
      label: "customer's instances",
      url: `${stack.apiUrl}/api/client/cloud?`,
      key: plane.customerKey,
      rows: instances(sql`user_id = ${plane.customerId}`),
      sizeOf: (s) => `${count(s.instances / 100)} of ${count(s.instances)}`,
    },
    {
      label: "an instance's activity",
      url: `${stack.apiUrl}/api/client/cloud/${plane.busyInstance}/activity?`,
      key: plane.customerKey,
      rows: sql`select ${micros} as at_micros, id::text from activity_log where instance_id = ${plane.busyInstance}
                 order by created_at desc, id desc`,
      sizeOf: (s) => `${count(s.activity / 100)} of ${count(s.activity)} rows`,
    },
    {
      label: 'all instances',
      url: `${app}?`,
      key: plane.adminKey,
      rows: instances(sql`true`),
      sizeOf: ofInstances,
    },
    {
      label: 'instances, status=stopped',
      url: `${app}?status=stopped&`,
      key: plane.adminKey,
      rows: instances(sql`status = 'stopped'`),
      sizeOf: ofInstances,
    },
    {
      label: 'instances, one hypervisor',
      url: `${app}?hypervisor=${plane.hypervisor}&`,
      key: plane.adminKey,
      rows: instances(sql`hypervisor_id = ${plane.hypervisor}`),
      sizeOf: ofInstances,
    },
    {
      label: 'instances, one user',
      url: `${app}?user=${plane.customerId}&`,
      key: plane.adminKey,
      rows: instances(sql`user_id = ${plane.customerId}`),
      sizeOf: ofInstances,
    },
    {
      label: 'all migrations',
      url: `${admin}?`,
      key: plane.adminKey,
      rows: migrations(sql`true`),
      sizeOf: ofMigrations,
    },
    {
      label: 'migrations, state=ROLLED_BACK',
      url: `${admin}?state=ROLLED_BACK&`,
      key: plane.adminKey,
      rows: migrations(sql`state = 'ROLLED_BACK'`),
      sizeOf: ofMigrations,
    },
    {
      label: 'migrations, one hypervisor',
      url: `${admin}?hypervisor=${plane.hypervisor}&`,
      key: plane.adminKey,
      rows: migrations(sql`${plane.hypervisor} in (source_hypervisor_id, target_hypervisor_id)`),
      sizeOf: ofMigrations,
    },
  ];
}
