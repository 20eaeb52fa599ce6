import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumPath, launchChromium, screenshot, serious } from '../support/browser.js';
import { eventually } from '../support/eventually.js';
import { migrationPair, requestedMigration, transferHanging } from '../support/migrations.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * The admin pages in headless Chromium, as an administrator uses them on a maintenance night:
 * sign in, migrate an instance with the wizard and watch it complete, cancel one before its point
 * of no return, resolve failed ones with each recovery decision; every page checked by axe-core.
 * Screenshots go to test-results/web/.
 */
if (!chromiumPath) console.warn('test/web/browser skipped: no chromium (apt-get install chromium)');

let env: Stack;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  env = await startStack({ agents: true, config: { MIGRATION_SOURCE_RETENTION_MS: '300' } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await env?.close();
});

const api = (method: string, path: string, body?: unknown) =>
  env.call(env.admin, method, `/admin/cloudsvc${path}`, body);
const url = (path: string) => `${env.url}/admin/cloudsvc${path}`;

const pair = () => migrationPair(env);

const requested = (instanceId: string, targetId: string) => requestedMigration(env, instanceId, targetId);

const stateOf = async (id: string): Promise<string> =>
  (await api('GET', `/migrations/${id}`)).body.attributes.state;

/** No serious or critical accessibility violation on the page as it is now. */
async function accessible(name: string) {
  const found = serious(await axeViolations(page));
  expect(found, `${name}: ${JSON.stringify(found, null, 1)}`).toEqual([]);
}

/** Marks the page, to tell later that what changed on it came without a reload. */
const mark = () => page.evaluate(() => Object.assign(globalThis, { notReloaded: true }));
const stillMarked = () => page.evaluate(() => (globalThis as { notReloaded?: boolean }).notReloaded === true);

describe.runIf(chromiumPath || process.env.CI)('the admin pages in Chromium', () => {
  it('refuses a browser without a session and a client key, and signs an administrator in by keyboard', async () => {
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(url('/migrations'));
    expect(new URL(page.url()).pathname).toBe('/admin/cloudsvc/login');
    await accessible('login');
    await screenshot(page, '01-login');

    await page.getByLabel('Application key').fill(env.client.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('SVC-ADMIN-LOGIN-403');
    expect(new URL(page.url()).pathname).toBe('/admin/cloudsvc/login');
    await screenshot(page, '02-login-client-key-refused');

    await page.getByLabel('Application key').focus();
    await page.keyboard.type(env.admin.key);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/migrations'));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Migrations');
    const cookie = (await context.cookies()).find((c) => c.name === 'cloudsvc_admin_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/admin/cloudsvc' });
    await accessible('migrations');
  });

  it('runs the wizard to COMPLETED and follows the steps without a reload', async () => {
    const { target, instance } = await pair();
    await page.goto(url(`/instances/view/${instance.id}/migrate/wizard`));
    await accessible('wizard');
    await page.getByLabel(/^COLD:/).check();
    await page.getByLabel(new RegExp(`^1\\. ${target.name}:`)).check();
    await page.getByRole('button', { name: 'Check this choice' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /^Ready:/ }).isVisible()).toBe(true);
    await screenshot(page, '03-wizard-check');
    await page.getByLabel('Reason (recorded with the migration)').fill('maintenance night');
    await page.getByRole('button', { name: `Start the migration to ${target.name}` }).click();
    await page.waitForURL(/\?migration=/);
    await accessible('wizard follow');
    await mark();
    await page.getByText('The migration completed').waitFor({ timeout: 30_000 });
    expect(await stillMarked()).toBe(true);
    await screenshot(page, '04-wizard-completed');
    const id = new URL(page.url()).searchParams.get('migration')!;
    // Committed: the source's copy may be on its way out, or gone.
    expect(await stateOf(id)).toMatch(/^(COMPLETED|CLEANING_UP|CLEANED_UP)$/);
    const shown = (await api('GET', `/migrations/${id}`)).body.attributes;
    expect(shown).toMatchObject({ mode: 'COLD', reason: 'maintenance night', target: { uuid: target.id } });
  });

  it('cancels a migration before its point of no return, after the confirmation, and shows it rolled back', async () => {
    const { target, targetAgent, instance } = await pair();
    targetAgent.armFault('disk.transfer', { mode: 'hang' });
    const migration = await requested(instance.id, target.id);
    await transferHanging(env, migration.workflow_id);

    await page.goto(url(`/migrations/${migration.uuid}/view`));
    await accessible('view, under way');
    const cancel = page.locator('form', { has: page.getByRole('button', { name: 'Cancel the migration…' }) });
    await cancel.getByLabel('Reason').fill('wrong target');
    await cancel.getByRole('button', { name: 'Cancel the migration…' }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Yes, cancel the migration' }).isVisible())
      .toBe(true);
    await accessible('confirmation');
    await screenshot(page, '05-cancel-confirmation');
    expect(await stateOf(migration.uuid)).toBe('TRANSFERRING');
    await page.getByRole('button', { name: 'Yes, cancel the migration' }).click();
    await page.waitForURL(/done=cancel/);
    await mark();
    await page
      .locator('#migration-live .badge', { hasText: 'ROLLED_BACK' })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await stillMarked()).toBe(true);
    await screenshot(page, '06-cancelled-rolled-back');
    expect(await stateOf(migration.uuid)).toBe('ROLLED_BACK');
  });

  for (const [decision, ask, confirm, end] of [
    ['retry', 'Retry the failed step…', 'Yes, retry it', 'CLEANED_UP'],
    [
      'target_authoritative',
      'The target is good: commit there…',
      'Yes, the target is authoritative',
      'CLEANED_UP',
    ],
    [
      'source_authoritative',
      'The source is good: give it back…',
      'Yes, the source is authoritative',
      'ROLLED_BACK',
    ],
  ] as const) {
    it(`resolves a migration in RECOVERY_REQUIRED with ${decision}`, async () => {
      const { target, targetAgent, instance } = await pair();
      targetAgent.armFault('migration.start_target', { mode: 'fail-permanently' });
      const migration = await requested(instance.id, target.id);
      await eventually(
        async () => (await stateOf(migration.uuid)) === 'RECOVERY_REQUIRED',
        30_000,
        'RECOVERY_REQUIRED',
      );

      await page.goto(url('/migrations'));
      const attention = page.locator('section', {
        has: page.getByRole('heading', { name: /Needs attention/ }),
      });
      await expect
        .poll(() => attention.getByRole('link', { name: `Migration ${migration.uuid.slice(0, 8)}` }).count())
        .toBe(1);
      if (decision === 'retry') await screenshot(page, '07-list-needs-attention');
      await attention.getByRole('link', { name: `Migration ${migration.uuid.slice(0, 8)}` }).click();
      await page.waitForURL(/\/view$/);
      await accessible(`view, ${decision}`);
      const form = page.locator('form', { has: page.getByRole('button', { name: ask }) });
      await form.getByLabel('Reason').fill(`checked the hosts (${decision})`);
      await form.getByRole('button', { name: ask }).click();
      await page.getByRole('button', { name: confirm }).click();
      await page.waitForURL(new RegExp(`done=${decision}`));
      await page.locator('#migration-live .badge', { hasText: end }).first().waitFor({ timeout: 30_000 });
      await screenshot(page, `08-recovered-${decision}`);
      const shown = (await api('GET', `/migrations/${migration.uuid}`)).body.attributes;
      expect(shown.state).toBe(end);
      expect(shown.recovery).toMatchObject({ decision, reason: `checked the hosts (${decision})` });
    });
  }

  it('lists a new migration without a reload, filters by state, and logs out', async () => {
    const { source, target, targetAgent, instance } = await pair();
    await page.goto(url(`/migrations?hypervisor=${source.id}`));
    await mark();
    targetAgent.armFault('disk.transfer', { mode: 'hang' });
    const migration = await requested(instance.id, target.id);
    await page
      .getByRole('link', { name: `Migration ${migration.uuid.slice(0, 8)}` })
      .waitFor({ timeout: 20_000 });
    expect(await stillMarked()).toBe(true);

    await page.getByLabel('State').selectOption('ROLLED_BACK');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/state=ROLLED_BACK/);
    expect(await page.getByRole('link', { name: `Migration ${migration.uuid.slice(0, 8)}` }).count()).toBe(0);
    await screenshot(page, '09-list-filtered');
    await api('POST', `/migrations/${migration.uuid}/cancel`, { reason: 'test over' });

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login\?note=logged_out/);
    await page.goto(url('/migrations'));
    expect(new URL(page.url()).pathname).toBe('/admin/cloudsvc/login');
    await context.close();
  });
});
