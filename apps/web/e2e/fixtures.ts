import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import path from 'node:path';

export { expect };

/** Fails on serious or critical accessibility violations of the page as it is now. */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `accessibility of ${label}`).toEqual([]);
}

const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../../test-results/screenshots');

/** Saves a full-page screenshot under test-results/screenshots for people to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

interface Fixtures {
  /** Console errors and uncaught page errors seen during the test (checked after it). */
  consoleErrors: string[];
  /** Content-Security-Policy violations Chromium reported (checked after the test). */
  cspIssues: string[];
}

export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const text = message.text();
        // A page answered with HTTP 4xx on purpose (404 page, 401 check) logs this line.
        if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text))
          return;
        errors.push(text);
      });
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
  cspIssues: [
    async ({ page }, use) => {
      const issues: string[] = [];
      const cdp = await page.context().newCDPSession(page);
      cdp.on('Audits.issueAdded', ({ issue }) => {
        if (issue.code !== 'ContentSecurityPolicyIssue') return;
        const d = issue.details.contentSecurityPolicyIssueDetails;
        issues.push(
          `${d?.contentSecurityPolicyViolationType} (${d?.violatedDirective}) at ${d?.sourceCodeLocation?.url ?? d?.blockedURL ?? '?'}`,
        );
      });
      await cdp.send('Audits.enable');
      await use(issues);
      expect(issues, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});
