import type { MigrationBody } from '../../../../wire/serializers/moves/migration.js';
import { StateBadge } from '../../layout/badge.js';
import { Detail } from '../../layout/detail.js';
import { When } from '../../layout/time.js';

/** Every state the migration entered, oldest first, with its time and what the step recorded. */
export function History(props: { migration: MigrationBody['attributes'] }) {
  return (
    <table>
      <caption>State history</caption>
      <thead>
        <tr>
          <th scope="col">At</th>
          <th scope="col">State</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {props.migration.history.map((h) => (
          <tr>
            <td>
              <When at={h.at} />
            </td>
            <td>
              <StateBadge state={h.state} />
            </td>
            <td>
              <Detail of={h.detail} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
