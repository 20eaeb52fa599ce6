import { parseArgs } from 'node:util';
import { findHypervisor } from '../../db/repositories/hypervisors.js';
import { findInstance } from '../../db/repositories/instances.js';
import { RECOVERY_DECISIONS, type RecoveryDecision } from '../../domain/migrations/states.js';
import type { ServiceDeps } from '../../services/context.js';
import { recoverMigrationWith } from '../../services/migrations/control.js';
import { getMigration } from '../../services/migrations/reads.js';
import { type MigrationBody, serializeMigration } from '../../wire/serializers/migration.js';
import { operatorActor, uuidArgument } from '../arguments.js';
import { type Command, UsageError } from '../command.js';
import { detailText } from '../migration-text.js';

const DECISIONS: Record<RecoveryDecision, (failedStep: string) => string> = {
  retry: (step) => `run ${step} again`,
  target_authoritative: () => 'the guest is good on the target: commit it there, then clean up the source',
  source_authoritative: () =>
    'you have the source running: the target copy is discarded and the migration ends ROLLED_BACK',
};

/** The decisions the workflow accepts now: none unless it waits; only a retry once the target is committed. */
function possibleDecisions(body: MigrationBody): RecoveryDecision[] {
  if (body.attributes.state !== 'RECOVERY_REQUIRED') return [];
  const committed = body.attributes.history.some((h) => h.state === 'COMPLETED');
  return committed ? ['retry'] : [...RECOVERY_DECISIONS];
}

async function sideOf(deps: ServiceDeps, side: MigrationBody['attributes']['source']) {
  const row = await findHypervisor(deps.db, side.uuid);
  return {
    uuid: side.uuid,
    name: side.name,
    status: row?.status ?? 'unknown',
    maintenance: row?.maintenance ?? false,
    last_seen_at: row?.last_seen_at?.toISOString() ?? null,
  };
}

/** What the panel knows of both sides and where it believes the instance is. */
async function recoveryView(deps: ServiceDeps, body: MigrationBody) {
  const m = body.attributes;
  const instance = await findInstance(deps.db, m.instance_uuid);
  const at = instance?.hypervisor_id ?? null;
  return {
    migration: body,
    source: await sideOf(deps, m.source),
    target: await sideOf(deps, m.target),
    instance: {
      uuid: m.instance_uuid,
      status: instance?.status ?? 'deleted',
      hypervisor_uuid: at,
      on: at === m.source.uuid ? 'source' : at === m.target.uuid ? 'target' : at ? 'elsewhere' : null,
    },
    decisions: possibleDecisions(body),
  };
}

function viewText(view: Awaited<ReturnType<typeof recoveryView>>): string[] {
  const m = view.migration.attributes;
  const hv = (s: typeof view.source) =>
    `${s.name} (${s.uuid}): ${s.status}${s.maintenance ? ', in maintenance' : ''}, last heard from ${s.last_seen_at ?? 'never'}`;
  const step = m.failed_step ?? '(none)';
  return [
    `Migration ${m.uuid}: ${m.state}`,
    `  failed step  ${step}${m.failure ? `: ${detailText(m.failure)}` : ''}`,
    `  source       ${hv(view.source)}`,
    `  target       ${hv(view.target)}`,
    `  instance     ${view.instance.uuid}: ${view.instance.status}, on the ${view.instance.on ?? 'no'} hypervisor according to the panel`,
    ...(m.recovery
      ? [`  decided      ${m.recovery.decision} by ${m.recovery.by}: ${m.recovery.reason ?? ''}`]
      : []),
    ...(view.decisions.length === 0
      ? [`Nothing to decide: the migration is ${m.state}, not waiting for recovery.`]
      : [
          `Possible decisions (cloudsvc:migration:recover ${m.uuid} --mark <decision> --reason <text>):`,
          ...view.decisions.map((d) => `  ${d.padEnd(20)}  ${DECISIONS[d](step)}`),
          'The panel never restarts the source by itself: check both hypervisors before you decide.',
        ]),
  ];
}

/**
 * SPEC.md §4: read-only unless `--mark`. Shows the failed step, what is known of both sides and
 * the decisions possible; `--mark <decision> --reason <text>` records one, which the workflow acts on.
 */
export const migrationRecoverCommand: Command = {
  name: 'cloudsvc:migration:recover',
  summary: 'Show a migration waiting for recovery and its possible decisions; --mark records one',
  usage: `cloudsvc:migration:recover <migration_uuid> [--mark=${RECOVERY_DECISIONS.join('|')} --reason=<text>] [--json]`,
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        mark: { type: 'string' },
        reason: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    const migrationId = uuidArgument(positionals, 'migration');
    if (values.reason !== undefined && values.mark === undefined)
      throw new UsageError('--reason goes with --mark');
    const decision = values.mark as RecoveryDecision | undefined;
    if (decision !== undefined && !RECOVERY_DECISIONS.includes(decision))
      throw new UsageError(`--mark must be one of ${RECOVERY_DECISIONS.join(', ')}`);
    const reason = values.reason?.trim();
    if (decision && !reason)
      throw new UsageError('--mark needs --reason <text>: it is recorded with the decision');

    const deps = await ctx.services();
    if (decision && reason) {
      const after = await recoverMigrationWith(deps, operatorActor(), { migrationId, decision, reason });
      const body = serializeMigration(after, deps.config);
      if (values.json) ctx.out(JSON.stringify(body));
      else ctx.out(`Recorded ${decision} on migration ${migrationId}; the workflow acts on it now.`);
      return undefined;
    }
    const view = await recoveryView(
      deps,
      serializeMigration(await getMigration(deps, migrationId), deps.config),
    );
    if (values.json) ctx.out(JSON.stringify(view));
    else for (const line of viewText(view)) ctx.out(line);
    return undefined;
  },
};
