import { z } from '../../zod.js';

export const ConsoleGatewayCredentialEnvelope = z
  .object({
    object: z.literal('console_gateway_credential'),
    attributes: z.object({
      uuid: z.string().uuid(),
      label: z.string().nullable(),
      hint: z.string().openapi({
        description: 'The credential’s first characters, to tell it apart; never the credential.',
      }),
      revoked: z.boolean(),
      created_at: z.string(),
      revoked_at: z.string().nullable(),
    }),
  })
  .openapi('ConsoleGatewayCredential');

export function serializeConsoleGatewayCredential(row: {
  id: string;
  label: string | null;
  hint: string;
  created_at: Date;
  revoked_at: Date | null;
}): z.infer<typeof ConsoleGatewayCredentialEnvelope> {
  return {
    object: 'console_gateway_credential',
    attributes: {
      uuid: row.id,
      label: row.label,
      hint: row.hint,
      revoked: row.revoked_at !== null,
      created_at: row.created_at.toISOString(),
      revoked_at: row.revoked_at?.toISOString() ?? null,
    },
  };
}
