import { z } from 'zod';
import { MIGRATION_MODES } from '../../../domain/migrations/states.js';
import type { Choice } from './choose.js';

const WizardQuery = z.object({
  mode: z.enum(MIGRATION_MODES).default('AUTO'),
  target: z.string().uuid().optional(),
  migration: z.string().uuid().optional(),
});

export interface WizardInput {
  readonly choice: Choice;
  /** The migration the wizard started, to follow. */
  readonly migration: string | undefined;
  readonly problem: string | undefined;
}

/** The wizard's query: a choice (AUTO and the best candidate unless given), or a migration to follow. */
export function readWizardQuery(query: Record<string, string>): WizardInput {
  const given = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  const parsed = WizardQuery.safeParse(given);
  if (!parsed.success)
    return {
      choice: { mode: 'AUTO', target: undefined },
      migration: undefined,
      problem: `Not a valid choice: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}.`,
    };
  return {
    choice: { mode: parsed.data.mode, target: parsed.data.target },
    migration: parsed.data.migration,
    problem: undefined,
  };
}
