import type { PlacedInstanceEnvelope } from '../../../wire/serializers/instances/placed-instance.js';
import type { z } from '../../../wire/zod.js';

type Instance = z.infer<typeof PlacedInstanceEnvelope>['attributes'];

/** The instance to move and where it is now. */
export function InstanceCard(props: { instance: Instance }) {
  const i = props.instance;
  return (
    <dl class="facts panel">
      <dt>Instance</dt>
      <dd>
        {i.name} ({i.hostname}) <span class="detail mono">{i.uuid}</span>
      </dd>
      <dt>Status</dt>
      <dd>{i.status}</dd>
      <dt>Hypervisor</dt>
      <dd>
        {i.hypervisor ? (
          <>
            {i.hypervisor.name} <span class="detail mono">{i.hypervisor.id}</span>
          </>
        ) : (
          'not placed'
        )}
      </dd>
      <dt>Location</dt>
      <dd>{i.location.code}</dd>
      <dt>Size</dt>
      <dd>
        {i.cpu_cores} vCPU, {i.memory_mb} MB memory, {i.disk_mb} MB disk
      </dd>
      <dt>Operation under way</dt>
      <dd>{i.operation ? i.operation.kind : 'none'}</dd>
    </dl>
  );
}
