import type { Context, Hono } from 'hono';
import { attentionOf } from '../../../../domain/migrations/attention.js';
import { listHypervisorChoices } from '../../../../services/hypervisors/names.js';
import { listMigrationPage, listMigrationsNeedingAttention } from '../../../../services/migrations/reads.js';
import { migrationFiltersOf } from '../../../../wire/requests/migration-filters.js';
import { serializeMigration } from '../../../../wire/serializers/moves/migration.js';
import type { PageEnv } from '../../context.js';
import { Notice } from '../../layout/page.js';
import { pages, routes } from '../../paths.js';
import { renderPage, renderPart } from '../../render.js';
import { sharedWithApi } from '../../session/guard.js';
import { ListFilters } from './filters.js';
import { listHref, readListQuery } from './query.js';
import { type AttentionRow, AttentionTable, MigrationTable } from './tables.js';

/** How often the list refreshes itself (assets/live.ts). */
const REFRESH_MS = 5_000;

async function listPage(c: Context<PageEnv>) {
  const deps = c.get('deps');
  const input = readListQuery(c.req.query());
  const live = c.req.query('part') === 'live';
  const filters = migrationFiltersOf(input.filters);
  const [page, attention, hypervisors] = await Promise.all([
    input.problems.length ? undefined : listMigrationPage(deps, filters, input.request),
    input.problems.length ? undefined : listMigrationsNeedingAttention(deps, filters),
    live ? [] : listHypervisorChoices(deps),
  ]);
  const stuckAfterMs = deps.config.MIGRATION_LONG_TRANSFER_S * 1000;
  const now = new Date();
  const rows: AttentionRow[] = (attention?.records ?? []).flatMap((record) => {
    const why = attentionOf({ state: record.state, updatedAt: record.updated_at }, now, stuckAfterMs);
    return why ? [{ migration: serializeMigration(record, deps.config).attributes, attention: why }] : [];
  });
  const migrations = (page?.records ?? []).map((r) => serializeMigration(r, deps.config).attributes);
  const total = page?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / input.request.perPage));
  const current = input.request.page;

  const region = (
    <div
      id="migrations-live"
      data-live={listHref(pages.migrations, input.form, {
        ...(current > 1 ? { page: String(current) } : {}),
        part: 'live',
      })}
      data-live-every={String(REFRESH_MS)}
    >
      {attention && attention.total > 0 && <AttentionTable rows={rows} total={attention.total} />}
      <MigrationTable
        migrations={migrations}
        caption={`Migrations, newest first: ${page?.totalEstimated ? 'about ' : ''}${total} in all`}
      />
      <nav class="pager" aria-label="Pages">
        {current > 1 && (
          <a href={listHref(pages.migrations, input.form, { page: String(current - 1) })}>← Newer</a>
        )}
        <span>
          Page {current} of {lastPage}
        </span>
        {current < lastPage && (
          <a href={listHref(pages.migrations, input.form, { page: String(current + 1) })}>Older →</a>
        )}
      </nav>
    </div>
  );
  if (live) return renderPart(c, region);
  return renderPage(
    c,
    'Migrations',
    <>
      <h1>Migrations</h1>
      {input.problems.length > 0 && (
        <Notice kind="error">The filters are not valid: see the marked fields.</Notice>
      )}
      <ListFilters input={input} hypervisors={hypervisors} />
      <p class="detail">
        The list follows the plane by itself. <a href={listHref(pages.migrations, input.form)}>Refresh</a>
      </p>
      {region}
    </>,
    input.problems.length ? 400 : 200,
  );
}

/**
 * `GET /migrations` (SPEC.md §4 "Admin pages"): filters by state, instance, hypervisor and time;
 * the migrations waiting for a recovery decision and the stuck ones above the rest; paginated;
 * refreshed in place. The admin API lists migrations at the same path, for a credential.
 */
export function register(app: Hono<PageEnv>): void {
  app.get(routes.migrations, sharedWithApi(listPage));
}
