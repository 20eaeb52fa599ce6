import type { UsageRecordRow } from '../../../db/repositories/usage/usage-records.js';
import { csvLine } from '../../../domain/usage/csv.js';
import { USAGE_METRIC_NAMES, USAGE_RESOURCE_TYPES } from '../../../domain/usage/metrics.js';
import { listEnvelope } from '../../schemas.js';
import { z } from '../../zod.js';

export const UsageRecordEnvelope = z
  .object({
    object: z.literal('usage_record'),
    attributes: z.object({
      id: z.string().openapi({ description: 'The record’s id (a decimal integer), in the order written.' }),
      hour: z.string().openapi({ description: 'The hour measured, by its first instant (UTC).' }),
      user_uuid: z.string().uuid(),
      instance_uuid: z
        .string()
        .uuid()
        .nullable()
        .openapi({ description: 'The instance it belongs to; null: none.' }),
      resource_type: z.enum(USAGE_RESOURCE_TYPES),
      resource_uuid: z.string().uuid(),
      plan_uuid: z
        .string()
        .uuid()
        .nullable()
        .openapi({ description: 'The instance’s plan; null: a custom size.' }),
      plan_code: z.string().nullable(),
      metric: z.enum(USAGE_METRIC_NAMES),
      quantity: z
        .string()
        .openapi({ description: 'A decimal of six places, in `unit`.', example: '0.500000' }),
      unit: z.string().openapi({ example: 'hours' }),
      recorded_at: z.string().openapi({ description: 'When the hour was closed into this record.' }),
    }),
  })
  .openapi('UsageRecord');

export const UsageRecordList = listEnvelope(UsageRecordEnvelope, 'UsageRecordList');

export function serializeUsageRecord(row: UsageRecordRow): z.infer<typeof UsageRecordEnvelope> {
  return {
    object: 'usage_record',
    attributes: {
      id: row.id,
      hour: row.hour.toISOString(),
      user_uuid: row.user_id,
      instance_uuid: row.instance_id,
      resource_type: row.resource_type as (typeof USAGE_RESOURCE_TYPES)[number],
      resource_uuid: row.resource_id,
      plan_uuid: row.plan_id,
      plan_code: row.plan_code,
      metric: row.metric as (typeof USAGE_METRIC_NAMES)[number],
      quantity: row.quantity,
      unit: row.unit,
      recorded_at: row.created_at.toISOString(),
    },
  };
}

const CSV_COLUMNS = Object.keys(UsageRecordEnvelope.shape.attributes.shape);
export const USAGE_CSV_HEADER = csvLine(CSV_COLUMNS);
export const USAGE_CSV_EXAMPLE = `${USAGE_CSV_HEADER}1,2026-11-01T00:00:00.000Z,…,instance.running,1.000000,hours,…\r\n`;

/** One record as a CSV line, its cells in the JSON attributes' order, each escaped (domain/usage/csv.ts). */
export function usageCsvLine(row: UsageRecordRow): string {
  const { attributes } = serializeUsageRecord(row);
  return csvLine(CSV_COLUMNS.map((column) => attributes[column as keyof typeof attributes]));
}
