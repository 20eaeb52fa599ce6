import { customerFailure } from '../../../domain/instances/failures.js';

/** An agent's failure as a customer may see it: the catalogue's words, never the agent's message. */
function serializeFailure(error: { code: string } | null) {
  return error ? customerFailure(error) : null;
}

/** What a backup and a snapshot both are: a copy of an instance's disk, in a state. */
export function artifactAttributes<State extends string>(row: {
  id: string;
  name: string;
  state: State;
  size_mb: number | null;
  checksum: string | null;
  error: { code: string } | null;
  created_at: Date;
  completed_at: Date | null;
}) {
  return {
    uuid: row.id,
    name: row.name,
    state: row.state,
    size_mb: row.size_mb,
    checksum: row.checksum,
    error: serializeFailure(row.error),
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
  };
}
