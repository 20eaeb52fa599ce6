import { endInWords, figuresInWords } from '../../domain/migrations/live-progress.js';
import type { LiveProgressBody } from '../../wire/serializers/moves/live-progress.js';
import { field } from './text.js';

/**
 * A live move's figures as `cloudsvc:migration:status` shows them (docs/migration.md "Live
 * progress"): the latest ones while the memory moves, and the downtime and total time once it has.
 */
export function liveProgressText(live: LiveProgressBody | null): string[] {
  if (!live) return [];
  const end = endInWords(live);
  return [
    ...(live.figures
      ? [
          field(
            end ? 'last figures' : 'live progress',
            `${figuresInWords(live.figures)} (at ${live.reported_at})`,
          ),
        ]
      : []),
    ...(end ? [field('live move', end)] : []),
  ];
}
