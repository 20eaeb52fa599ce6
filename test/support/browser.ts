import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type Page, chromium as playwright } from 'playwright-core';

/** Debian's Chromium (playwright's own download is not reachable here); CI installs it. */
export const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) =>
  existsSync(path),
);

/**
 * Headless Chromium as these machines allow it: no sandbox (we run as root), and none of its own
 * network traffic, which the closed network refuses.
 */
export function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error('no chromium: apt-get install chromium');
  return playwright.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where the browser tests keep their screenshots (CI keeps the folder as an artifact). */
export const SCREENSHOTS = new URL('../../test-results/web/', import.meta.url);

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: string[];
}

/**
 * axe-core's violations of the page as it is (WCAG 2.1 A and AA and best practices). The page's
 * content security policy allows no inline script, so axe is evaluated by the browser's debugging
 * protocol rather than added as a script tag.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    // The page's globals (no DOM types here: tsconfig's lib is the server's).
    // biome-ignore lint/suspicious/noExplicitAny: axe is the script just evaluated
    const { axe, document } = globalThis as any;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map(
      (v: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => n.target.join(' ')),
      }),
    );
  });
}

/** The violations that matter: serious and critical. */
export const serious = (violations: AxeViolation[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
