import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { TransferRedemptionBody } from '../../domain/agent-protocol.js';
import type { AppEnv } from '../../http/context.js';
import { redeemTransfer } from '../../services/agents/transfers.js';
import { commonErrors, jsonBody, jsonContent } from '../../wire/schemas.js';
import { component, z } from '../../wire/zod.js';
import { agentActor } from '../auth/principals.js';

const RedeemBody = z
  .object({
    token: z
      .string()
      .min(1)
      .max(512)
      .regex(/^[A-Za-z0-9_-]+$/),
  })
  .strict()
  .openapi('TransferRedeemRequest');

const Redemption = component(TransferRedemptionBody, 'TransferRedemption');

const route = createRoute({
  method: 'post',
  path: '/transfers/redeem',
  tags: ['Agent'],
  summary: "Redeem a migration's transfer token",
  description:
    'The receiving agent of a migration trades the transfer token of its `disk.transfer` task for where the ' +
    'sending hypervisor offers the disk: an address, with no secret in it (the move is opened by its transport key, ' +
    'which the task carries). A token is good once, for one migration and one disk, on the ' +
    'migration’s target only, until it expires (TRANSFER_TOKEN_TTL_MS) or the migration ends; anything else ' +
    'is 401 SVC-TRANSFER-401.',
  request: { body: jsonBody(RedeemBody) },
  responses: {
    200: jsonContent(Redemption, 'Redeemed: where to read the disk from.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const redeemed = await redeemTransfer(c.get('deps'), agentActor(c), c.req.valid('json').token);
    return c.json({ object: 'transfer_redemption' as const, attributes: redeemed }, 200);
  });
}
