import { type ConvergenceRequest, policyInWords } from '../../domain/migrations/convergence.js';
import { recoverMigrationWith } from '../../services/migrations/control.js';
import { migrationPreflight } from '../../services/migrations/preflight.js';
import { getMigration } from '../../services/migrations/reads.js';
import { requestMigration } from '../../services/migrations/request.js';
import {
  type MigrationBody,
  type MigrationPreflightBody,
  serializeMigration,
  serializePreflight,
} from '../../wire/serializers/moves/migration.js';
import { CONVERGENCE_OPTIONS, convergenceOptions } from '../convergence-options.js';
import { instanceByReference, optionalHypervisor } from '../references.js';
import { hypervisorFacts, hypervisorLine, instanceFacts } from './hypervisor-facts.js';
import type { MoveAskBase, MoveCliKind } from './kind.js';
import { liveProgressText } from './live-progress-text.js';
import { preflightText } from './migration-text.js';
import { field, moveText } from './text.js';

interface MigrationAsk extends MoveAskBase {
  /** Left out: the preflight's best candidate, which the confirmation names. */
  readonly targetId: string | undefined;
  /** The convergence figures given; the rest are the configured defaults'. */
  readonly convergence: ConvergenceRequest | undefined;
}

const side = (h: { uuid: string; name: string }) => `${h.name} (${h.uuid})`;

/** A migration to the `cloudsvc:migration:*` commands (SPEC.md §4). */
export const migrationCli: MoveCliKind<MigrationBody, MigrationPreflightBody, MigrationAsk> = {
  noun: 'migration',
  command: 'migration',
  askOptions: { target: { type: 'string' }, ...CONVERGENCE_OPTIONS },
  async ask(ctx, { instance, mode, options }) {
    const convergence = convergenceOptions(options);
    return {
      instanceId: await instanceByReference(ctx.db(), instance),
      mode,
      targetId: await optionalHypervisor(ctx.db(), options.target, 'target'),
      convergence,
    };
  },
  preflight: async (deps, ask) => serializePreflight(await migrationPreflight(deps, ask)),
  preflightText,
  question: (ask, report) => {
    const { source, target, strategy } = report.attributes;
    return `Migrate instance ${ask.instanceId} from ${source?.name} to ${target?.name} (${strategy}, ${ask.mode})?`;
  },
  async request(deps, actor, ask, report) {
    // The target the operator confirmed, not a best candidate chosen again.
    const targetId = report.attributes.target?.uuid ?? ask.targetId;
    return (await requestMigration(deps, actor, { ...ask, targetId })).migrationId;
  },
  show: async (deps, id) => serializeMigration(await getMigration(deps, id), deps.config),
  text: (body) =>
    moveText('migration', body, {
      subject: [
        field('source', side(body.attributes.source)),
        field('target', side(body.attributes.target)),
        ...(body.attributes.convergence
          ? [field('convergence', policyInWords(body.attributes.convergence))]
          : []),
        ...liveProgressText(body.attributes.live_progress),
      ],
      kept: body.attributes.retain_source_until
        ? [field('source kept until', body.attributes.retain_source_until)]
        : [],
    }),
  kept: (body) =>
    body.attributes.retain_source_until
      ? `The source copy is kept until ${body.attributes.retain_source_until}, then cleaned up.`
      : undefined,
  decide: async (deps, actor, { id, ...decision }) =>
    serializeMigration(
      await recoverMigrationWith(deps, actor, { migrationId: id, ...decision }),
      deps.config,
    ),
  decisions: {
    retry: (step) => `run ${step} again`,
    target_authoritative: () => 'the guest is good on the target: commit it there, then clean up the source',
    source_authoritative: () =>
      'you have the source running: the target copy is discarded and the migration ends ROLLED_BACK',
  },
  async situation(deps, body) {
    const m = body.attributes;
    const source = await hypervisorFacts(deps, m.source);
    const target = await hypervisorFacts(deps, m.target);
    const instance = await instanceFacts(deps, m.instance_uuid);
    const at = instance.hypervisor_uuid;
    const on = at === m.source.uuid ? 'source' : at === m.target.uuid ? 'target' : at ? 'elsewhere' : null;
    return {
      facts: { source, target, instance: { ...instance, on } },
      lines: [
        `  source       ${hypervisorLine(source)}`,
        `  target       ${hypervisorLine(target)}`,
        `  instance     ${instance.uuid}: ${instance.status}, on the ${on ?? 'no'} hypervisor according to the panel`,
      ],
    };
  },
  caution: 'The panel never restarts the source by itself: check both hypervisors before you decide.',
};
