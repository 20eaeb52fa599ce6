import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEPRECATIONS,
  deprecationHeaders,
  indexDeprecations,
} from '../../domain/api-versions/deprecations.js';
import {
  API_VERSIONS,
  CURRENT_API_VERSION,
  checkApiVersion,
  pinnedVersion,
} from '../../domain/api-versions/versions.js';
import { renderInVersion, VERSION_CHANGES } from '../../wire/versions/render.js';

/** docs/api.md "Versions": the rules of versions and deprecations, and the changelog kept to them. */
describe('versions', () => {
  it('are dates, oldest first, the last one current', () => {
    for (const version of API_VERSIONS) expect(version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect([...API_VERSIONS].sort()).toEqual([...API_VERSIONS]);
    expect(CURRENT_API_VERSION).toBe(API_VERSIONS.at(-1));
    // Every change is dated with a version, and every version after the first made one.
    expect(new Set(VERSION_CHANGES.map((c) => c.version))).toEqual(new Set(API_VERSIONS.slice(1)));
  });

  it('takes a version it has, and tells a malformed one from an unknown date', () => {
    expect(checkApiVersion('2026-11-22')).toEqual({ ok: true, version: '2026-11-22' });
    const unknown = checkApiVersion('2026-01-01');
    const malformed = checkApiVersion('v2');
    expect(unknown.ok || malformed.ok).toBe(false);
    if (!unknown.ok) expect(unknown.detail).toContain('2026-01-01 is not a version');
    if (!malformed.ok) expect(malformed.detail).toContain('YYYY-MM-DD');
    expect(pinnedVersion(null)).toBe(CURRENT_API_VERSION);
    expect(pinnedVersion('2026-11-22')).toBe('2026-11-22');
  });

  it('renders an older version without touching the current answer it starts from', () => {
    const answer = {
      data: [
        {
          object: 'cloud_instance',
          attributes: { uuid: 'a', guest_drift: { state: 'missing', since: 'T' }, timezone: 'UTC' },
        },
        { object: 'ssh_key', attributes: { guest_drift: { state: 'missing', since: 'T' } } },
      ],
    };
    const copy = structuredClone(answer);
    const older = renderInVersion(answer, '2026-11-22');
    expect(answer).toEqual(copy);
    expect(older.data[0]!.attributes).toEqual({
      uuid: 'a',
      guest_drift: 'missing',
      guest_drift_since: 'T',
      timezone: 'UTC',
    });
    // Only the envelopes the change names.
    expect(older.data[1]).toEqual(answer.data[1]);
    expect(renderInVersion(answer, CURRENT_API_VERSION)).toBe(answer);
  });
});

describe('deprecations', () => {
  it('announce a version with RFC 9745 and RFC 8594 headers and a link to the changelog', () => {
    const headers = deprecationHeaders(
      indexDeprecations(DEPRECATIONS).of('client', '2026-11-22', 'GET', '/'),
    );
    expect(headers).toEqual({
      Deprecation: `@${Date.UTC(2026, 11, 6) / 1000}`,
      Sunset: 'Mon, 06 Dec 2027 00:00:00 GMT',
      Link: '</docs/api-changelog>; rel="deprecation"; type="text/html"',
    });
    expect(
      deprecationHeaders(indexDeprecations(DEPRECATIONS).of('client', CURRENT_API_VERSION, 'GET', '/')),
    ).toBe(undefined);
  });

  it('find a deprecated route by its method and path template, in its API only, and the earliest dates win', () => {
    const index = indexDeprecations([
      { kind: 'version', version: '2026-11-22', deprecatedOn: '2026-12-06', sunsetOn: '2027-12-06' },
      {
        kind: 'route',
        api: 'client',
        method: 'post',
        path: '/{cloudInstance}/power',
        deprecatedOn: '2026-12-01',
        sunsetOn: '2027-06-01',
      },
    ]);
    expect(index.of('client', CURRENT_API_VERSION, 'POST', '/3f9d/power')).toHaveLength(1);
    expect(index.of('client', CURRENT_API_VERSION, 'POST', '/3f9d/power/')).toHaveLength(1);
    expect(index.of('client', CURRENT_API_VERSION, 'GET', '/3f9d/power')).toEqual([]);
    expect(index.of('client', CURRENT_API_VERSION, 'POST', '/3f9d/x/power')).toEqual([]);
    expect(index.of('application', CURRENT_API_VERSION, 'POST', '/3f9d/power')).toEqual([]);
    const both = deprecationHeaders(index.of('client', '2026-11-22', 'POST', '/3f9d/power'));
    expect(both?.Deprecation).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(both?.Sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
  });

  it('never deprecate the current version', () => {
    expect(() =>
      indexDeprecations([
        { kind: 'version', version: CURRENT_API_VERSION, deprecatedOn: '2026-12-06', sunsetOn: '2027-12-06' },
      ]),
    ).toThrow();
  });
});

describe('docs/api-changelog.md', () => {
  const changelog = readFileSync(new URL('../../docs/api-changelog.md', import.meta.url), 'utf8');
  it('has a section for every version, and names what each change touched', () => {
    for (const version of API_VERSIONS) expect(changelog).toMatch(new RegExp(`^## ${version}\\b`, 'm'));
    for (const change of VERSION_CHANGES)
      for (const object of Object.keys(change.downgrade)) expect(changelog).toContain(`\`${object}\``);
  });
});
