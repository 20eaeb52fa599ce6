import type { listBandwidth } from '../../../db/repositories/metrics/bandwidth.js';
import { BANDWIDTH_HISTORY_PERIODS, billingPeriodOf } from '../../../domain/networks/bandwidth.js';
import { z } from '../../zod.js';

const Period = z
  .object({
    period: z.string().openapi({ example: '2026-11', description: 'The calendar month (UTC).' }),
    starts_at: z.string(),
    ends_at: z.string(),
    inbound_bytes: z.number().int().openapi({ description: 'Received by the instance.' }),
    outbound_bytes: z.number().int().openapi({ description: 'Sent by the instance.' }),
    total_bytes: z.number().int(),
    last_sample_at: z
      .string()
      .nullable()
      .openapi({ description: 'The newest sample counted; null: none yet.' }),
  })
  .openapi('BandwidthPeriod');

export const BandwidthEnvelope = z
  .object({
    object: z.literal('bandwidth'),
    attributes: z.object({
      instance_uuid: z.string().uuid(),
      current: Period.openapi({ description: 'This month so far: the running total.' }),
      history: z.array(Period).openapi({
        description: `Earlier months, newest first: up to ${BANDWIDTH_HISTORY_PERIODS}, none before the instance was created.`,
      }),
    }),
  })
  .openapi('Bandwidth');

type BandwidthRow = Awaited<ReturnType<typeof listBandwidth>>[number];

/**
 * The current period and the earlier ones since the instance was created, each present (a
 * period without traffic shows zeros), from the periods that had traffic.
 */
export function serializeBandwidth(
  instance: { id: string; created_at: Date },
  rows: readonly BandwidthRow[],
  now: Date,
): z.infer<typeof BandwidthEnvelope> {
  const first = billingPeriodOf(instance.created_at).startsAt;
  const periods = Array.from({ length: BANDWIDTH_HISTORY_PERIODS + 1 }, (_, i) =>
    billingPeriodOf(now, -i),
  ).filter((p, i) => i === 0 || p.startsAt >= first);
  const [current, ...history] = periods.map((p) => {
    const row = rows.find((r) => r.period === p.period);
    const inbound = Number(row?.inbound_bytes ?? 0);
    const outbound = Number(row?.outbound_bytes ?? 0);
    return {
      period: p.period,
      starts_at: p.startsAt.toISOString(),
      ends_at: p.endsAt.toISOString(),
      inbound_bytes: inbound,
      outbound_bytes: outbound,
      total_bytes: inbound + outbound,
      last_sample_at: row?.last_sample_at.toISOString() ?? null,
    };
  });
  return { object: 'bandwidth', attributes: { instance_uuid: instance.id, current: current!, history } };
}
