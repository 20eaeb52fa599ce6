import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ApiError } from '../../../domain/errors.js';
import { restoreEvacuation, restorePreview } from '../../../services/evacuations/restore.js';
import { showEvacuation } from '../../../services/evacuations/show.js';
import { serializeShownEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { modeOption, operatorActor, uuidArgument } from '../../arguments.js';
import { type Command, EXIT } from '../../command.js';
import { confirmed, noTerminal } from '../../confirm.js';
import { WINDOW_OPTIONS, windowOptions } from '../../evacuation-options.js';
import { evacuationText } from '../../evacuation-text.js';
import { exitOfEnded, watchEvacuation } from '../../evacuation-watch.js';
import { counted } from '../../words.js';

/**
 * Brings an evacuation's instances home through the same service as the admin API, after the
 * operator confirmed it on a terminal (or with `--force`, which is warned). The policy is the
 * evacuation's; each option given replaces one. `--dry-run` asks the real rule and changes nothing.
 * The progress is shown as it changes, until the restore ends (Ctrl-C stops watching only).
 */
export const evacuationRestoreCommand: Command = {
  name: 'cloudsvc:evacuation:restore',
  summary: 'Bring the instances an evacuation moved back to their hypervisor once it is out of maintenance',
  usage:
    'cloudsvc:evacuation:restore <evacuation_uuid> [--mode=<mode>] [--max-parallel=N] [--max-per-target=N] ' +
    '[--on-failure=skip|retry|pause] [--max-attempts=N] [--reason=TEXT] [--force] [--dry-run] [--no-wait] [--json]',
  async run(argv, ctx) {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        mode: { type: 'string' },
        ...WINDOW_OPTIONS,
        reason: { type: 'string' },
        force: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        'no-wait': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    const evacuationId = uuidArgument(positionals, 'evacuation');
    const mode = values.mode === undefined ? undefined : modeOption(values.mode);
    const window = windowOptions(values);
    if (!values['dry-run'] && !values.force && !ctx.ask) throw noTerminal('restore');
    const deps = await ctx.services();
    const note = values.json ? ctx.err : ctx.out;

    const { verdict, home, instances } = await restorePreview(deps, evacuationId);
    if (values['dry-run']) {
      if (values.json) ctx.out(JSON.stringify({ allowed: verdict.ok, ...verdict, instances }));
      else
        note(
          verdict.ok
            ? `Dry run: a restore would bring ${counted(instances, 'instance')} back to ${home.name}; nothing was changed.`
            : `Dry run: refused, ${verdict.code}: ${verdict.detail}`,
        );
      return verdict.ok ? EXIT.ok : EXIT.failed;
    }
    if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
    const question = `Move ${counted(instances, 'instance')} of evacuation ${evacuationId} back to ${home.name}?`;
    if (!(await confirmed(ctx, 'restore', question, values.force))) {
      note('Not started.');
      return EXIT.failed;
    }
    const restore = await restoreEvacuation(deps, operatorActor(), {
      evacuationId,
      policy: {
        ...(mode ? { mode } : {}),
        ...window,
      },
      reason: values.reason,
      correlationId: randomUUID(),
    });
    note(
      `Restore ${restore.evacuationId} started; follow it with: cloudsvc cloudsvc:evacuation:status ${restore.evacuationId}`,
    );
    if (values['no-wait']) {
      const body = serializeShownEvacuation(await showEvacuation(deps, restore.evacuationId));
      if (values.json) ctx.out(JSON.stringify(body));
      return EXIT.ok;
    }
    const body = await watchEvacuation(deps, restore.evacuationId, note);
    if (values.json) ctx.out(JSON.stringify(body));
    else for (const line of evacuationText(body)) note(line);
    return exitOfEnded(body);
  },
};
