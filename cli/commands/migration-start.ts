import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { MigrationState } from '../../domain/migrations/states.js';
import type { ServiceDeps } from '../../services/context.js';
import { migrationPreflight } from '../../services/migrations/preflight.js';
import { getMigration } from '../../services/migrations/reads.js';
import { requestMigration } from '../../services/migrations/request.js';
import { serializeMigration, serializePreflight } from '../../wire/serializers/migration.js';
import { modeOption, operatorActor } from '../arguments.js';
import { type Command, EXIT } from '../command.js';
import { confirmed, noTerminal } from '../confirm.js';
import { historyLine, preflightText } from '../migration-text.js';
import { instanceByReference, optionalHypervisor, referenceArgument } from '../references.js';

/** Where watching stops: the migration succeeded, ended, or waits for an operator. */
const SETTLED: readonly MigrationState[] = ['COMPLETED', 'CLEANED_UP', 'ROLLED_BACK', 'RECOVERY_REQUIRED'];
const SUCCEEDED: readonly MigrationState[] = ['COMPLETED', 'CLEANED_UP'];
const POLL_MS = 500;

/** Prints each state as the migration records it, until it settles; the last record. */
async function watch(deps: ServiceDeps, migrationId: string, print: (line: string) => void) {
  let shown = 0;
  for (;;) {
    const migration = await getMigration(deps, migrationId);
    const body = serializeMigration(migration, deps.config);
    for (const entry of body.attributes.history.slice(shown)) print(historyLine(entry));
    shown = body.attributes.history.length;
    if (SETTLED.includes(migration.state)) return body;
    await sleep(POLL_MS);
  }
}

/**
 * SPEC.md §4: request and start a migration after the operator confirms it on a terminal; without
 * one, only with `--force`, which is warned. `--dry-run` runs the real preflight and reports, and
 * changes nothing. The states are shown as they happen, until the migration settles.
 */
export const migrationStartCommand: Command = {
  name: 'cloudsvc:migration:start',
  summary: 'Request and start a migration, confirmed on the terminal, and show its states live',
  usage:
    'cloudsvc:migration:start <instance uuid|name> --mode=<mode> [--target=<hypervisor uuid|name>] [--force] [--dry-run] ' +
    '[--no-wait] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        target: { type: 'string' },
        mode: { type: 'string' },
        force: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        'no-wait': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    const instance = referenceArgument(positionals, 'instance');
    const mode = modeOption(values.mode);
    // Known before any work: this command line cannot start a migration.
    if (!values['dry-run'] && !values.force && !ctx.ask) throw noTerminal('migration');
    const instanceId = await instanceByReference(ctx.db(), instance);
    const targetId = await optionalHypervisor(ctx.db(), values.target, 'target');
    const deps = await ctx.services();
    // Progress and notes go where they do not mix with the JSON a script reads.
    const note = values.json ? ctx.err : ctx.out;

    const report = serializePreflight(await migrationPreflight(deps, { instanceId, targetId, mode }));
    if (values.json && (values['dry-run'] || !report.attributes.ok)) ctx.out(JSON.stringify(report));
    else for (const line of preflightText(report)) note(line);
    const { ok, source, target, strategy } = report.attributes;
    if (!ok || !source || !target || !strategy) {
      note('Not started: the preflight found blockers.');
      return EXIT.failed;
    }
    if (values['dry-run']) {
      note('Dry run: nothing was requested or changed.');
      return EXIT.ok;
    }

    const question = `Migrate instance ${instanceId} from ${source.name} to ${target.name} (${strategy}, ${mode})?`;
    if (!(await confirmed(ctx, 'migration', question, values.force))) {
      note('Not started.');
      return EXIT.failed;
    }
    // The target the operator confirmed, not a best candidate chosen again.
    const { migrationId } = await requestMigration(deps, operatorActor(), {
      instanceId,
      targetId: target.uuid,
      mode,
      correlationId: randomUUID(),
    });
    const requested = serializeMigration(await getMigration(deps, migrationId), deps.config);
    note(`Migration ${migrationId} requested; workflow ${requested.attributes.workflow_id}`);
    if (requested.attributes.temporal_ui_url) note(`  ${requested.attributes.temporal_ui_url}`);
    if (values['no-wait']) {
      if (values.json) ctx.out(JSON.stringify(requested));
      else note(`Follow it with: cloudsvc cloudsvc:migration:status ${migrationId}`);
      return EXIT.ok;
    }

    note('States as they happen (Ctrl-C stops watching; the migration goes on):');
    const settled = await watch(deps, migrationId, note);
    const state = settled.attributes.state;
    if (values.json) ctx.out(JSON.stringify(settled));
    if (state === 'COMPLETED' && settled.attributes.retain_source_until)
      note(
        `Completed. The source copy is kept until ${settled.attributes.retain_source_until}, then cleaned up.`,
      );
    else if (state === 'RECOVERY_REQUIRED')
      note(`Waiting for an operator: cloudsvc cloudsvc:migration:recover ${migrationId}`);
    else note(`Migration ${state}.`);
    return SUCCEEDED.includes(state) ? EXIT.ok : EXIT.failed;
  },
};
