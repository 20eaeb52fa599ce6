import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, screenshot } from '../support/browser.js';
import { type Stack, startStack } from '../support/stack.js';

/** The API reference (Swagger UI from `swagger-ui-dist`) in headless Chromium, against the running API. */
let env: Stack;
let browser: Browser;

beforeAll(async () => {
  env = await startStack({ listen: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe.runIf(chromiumPath || process.env.CI)('the API reference in Chromium', () => {
  it('renders the Client API’s operations and tries one out against the running API', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    await page.goto(`${env.url}/docs`);
    await page.getByRole('link', { name: 'cloudsvc Client API' }).click();
    await page.waitForURL(/\/docs\/client$/);
    const power = page.locator('.opblock', { hasText: 'postCloudInstancePower' });
    await power.waitFor({ timeout: 30_000 });
    await screenshot(page, 'reference-client');

    const list = page.locator('.opblock-get', { hasText: 'getCloudInstances' }).first();
    await list.locator('.opblock-summary').click();
    await list.getByRole('button', { name: 'Execute' }).click();
    // Without a key, the API's own answer comes back: 401 in our error envelope.
    await list
      .locator('.live-responses-table .response-col_status', { hasText: '401' })
      .waitFor({ timeout: 15_000 });
    expect(await list.locator('.live-responses-table').textContent()).toContain('SVC-AUTH-401');
    expect(failed).toEqual([]);
    await page.close();
  }, 90_000);
});
