import { policyInWords } from '../domain/migrations/convergence.js';
import type { BackendDrainPlanBody } from '../wire/serializers/moves/backend-drain-plan.js';
import type { EvacuationBody } from '../wire/serializers/moves/evacuation.js';
import type { EvacuationPlanBody } from '../wire/serializers/moves/evacuation-plan.js';
import { counted } from './words.js';

/** The operator's view of an evacuation's plan and of an evacuation: the API's bodies, as an administrator sees them. */

const named = (r: { uuid: string; name: string }) => `${r.name} (${r.uuid})`;
const codes = (list: readonly { code: string }[]) => list.map((f) => f.code).join(', ');

export function planText(body: EvacuationPlanBody): string[] {
  const p = body.attributes;
  return [
    `Evacuation plan of ${named(p.hypervisor)}, mode ${p.mode}: ${p.moves.length} of ${counted(p.instances, 'instance')} can move`,
    ...(p.moves.length === 0 ? [] : ['Moves, in the order they start']),
    ...p.moves.map((m, i) => `  ${i + 1}. ${named(m.instance)} → ${m.target.name}, ${m.strategy}`),
    ...(p.targets.length === 0 ? [] : ['Targets']),
    ...p.targets.map(
      (t) =>
        `  ${named(t)}: ${counted(t.instances, 'instance')}, ${t.memory_mb} MB memory, ${t.disk_mb} MB disk`,
    ),
    ...(p.unmovable.length === 0 ? [] : ['Cannot move']),
    ...p.unmovable.flatMap((u) => [
      `  ${named(u.instance)}`,
      ...u.blockers.map((b) => `    ${b.code}  ${b.detail}`),
    ]),
  ];
}

/** One line of progress: how many instances stand where. */
export function progressLine(body: EvacuationBody): string {
  const { progress, state } = body.attributes;
  const parts = (
    ['moved', 'migrating', 'recovery_required', 'pending', 'failed', 'blocked', 'cancelled'] as const
  )
    .filter((s) => progress[s] > 0)
    .map((s) => `${progress[s]} ${s.replace('_', ' ')}`);
  return `${state}: ${counted(progress.total, 'instance')}${parts.length ? `, ${parts.join(', ')}` : ''}`;
}

export function evacuationText(body: EvacuationBody): string[] {
  const e = body.attributes;
  const p = e.policy;
  return [
    e.kind === 'restore'
      ? `Restore ${e.uuid} of evacuation ${e.restores} to ${named(e.hypervisor)}`
      : `Evacuation ${e.uuid} of ${named(e.hypervisor)}`,
    `  state     ${progressLine(body)}`,
    `  policy    ${p.mode}, ${p.max_parallel} at once, ${p.max_parallel_per_target} per target, on failure ${p.on_failure}, ${p.max_attempts} attempts`,
    ...(p.convergence ? [`  moves     ${policyInWords(p.convergence)}`] : []),
    `  by        ${e.requested_by}${e.reason ? ` (${e.reason})` : ''}, ${e.created_at}${e.finished_at ? `, ended ${e.finished_at}` : ''}`,
    `  workflow  ${e.workflow_id}`,
    ...(e.failure ? [`  failure   ${String(e.failure.code)}: ${String(e.failure.message)}`] : []),
    ...(e.instances?.length ? ['Instances'] : []),
    ...(e.instances ?? []).map((i) => {
      const move = i.migration_uuid ? ` [migration ${i.migration_uuid} ${i.migration_state}]` : '';
      const target = i.target ? ` → ${i.target.name}` : '';
      const why = i.reasons.length ? `: ${codes(i.reasons)}` : '';
      return `  ${named(i.instance)}  ${i.state}${target}${why}${move}`;
    }),
  ];
}

export function backendDrainPlanText(body: BackendDrainPlanBody): string[] {
  const p = body.attributes;
  return [
    `Backend drain plan of ${named(p.hypervisor)}, ${p.from_backend} → ${p.to_backend}, mode ${p.mode}: ${counted(p.moves.length, 'instance')} can move`,
    ...p.moves.map(
      (m, i) => `  ${i + 1}. ${named(m.instance)}: ${m.disks.map((d) => d.disk).join(', ')}, ${m.strategy}`,
    ),
    ...(p.unmovable.length === 0 ? [] : ['Cannot move']),
    ...p.unmovable.flatMap((u) => [
      `  ${named(u.instance)}`,
      ...u.blockers.map((b) => `    ${b.code}  ${b.detail}`),
    ]),
  ];
}
