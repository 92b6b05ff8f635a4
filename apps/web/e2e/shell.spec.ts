import { expect, expectAccessible, snap, test } from './fixtures';

test.describe('site shell', () => {
  test('home shows the header, navigation and footer, and passes axe', async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('.js')) scripts.push(r.headers()['content-encoding'] ?? 'none');
    });
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    // The page and its scripts travel compressed.
    expect(['br', 'gzip']).toContain(response?.headers()['content-encoding']);
    await expect(page.getByRole('link', { name: 'Chapterwise home' }).first()).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'AI Assistant' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Book Materials' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Blog' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Create Account' })).toBeVisible();
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByText('© 2023 Chapterwise')).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Book Teaching Materials' })).toHaveAttribute(
      'href',
      '/books',
    );
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
    await expect(footer.getByRole('button', { name: 'Subscribe' })).toBeVisible();
    await expectAccessible(page, 'home');
    await snap(page, 'home-desktop-light');
    expect(scripts.length).toBeGreaterThan(0);
    for (const encoding of scripts) expect(['br', 'gzip']).toContain(encoding);
  });

  test('mega menus list subjects and blog categories with slug links', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Book Materials' }).click();
    await expect(nav.getByRole('link', { name: 'Science Fiction' })).toHaveAttribute(
      'href',
      '/books/science-fiction',
    );
    await expect(nav.getByRole('link', { name: "Children's Literature" })).toHaveAttribute(
      'href',
      '/books/children-s-literature',
    );
    await expectAccessible(page, 'mega menu');
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: 'Science Fiction' })).toBeHidden();
    await nav.getByRole('button', { name: 'Blog' }).click();
    await expect(nav.getByRole('link', { name: 'Teaching Tips' })).toHaveAttribute(
      'href',
      '/blog/category/teaching-tips',
    );
  });

  test('dark mode is stored and applied before the first paint', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark-mode');
    // Record the theme at the moment <body> is created, before anything can be painted.
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (document.body) {
          (window as unknown as { themeAtBody: string | undefined }).themeAtBody =
            document.documentElement.dataset.theme;
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    expect(
      await page.evaluate(() => (window as unknown as { themeAtBody?: string }).themeAtBody),
    ).toBe('dark');
    await expectAccessible(page, 'home in dark mode');
    await snap(page, 'home-desktop-dark');
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('default');
  });

  test('phone layout collapses the menu at 375 px', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Create Account' })).toBeVisible();
    await expectAccessible(page, 'phone menu');
    await snap(page, 'home-phone-menu');
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(375);
  });

  test('the header stays fixed once the page scrolls', async ({ page }) => {
    await page.goto('/');
    await page.mouse.wheel(0, 1200);
    await expect(page.locator('header.site-header')).toHaveClass(/is-fixed/);
    const box = await page.locator('header.site-header').boundingBox();
    expect(box?.y).toBe(0);
  });

  test('unknown and template-only paths are a real 404 page', async ({ page }) => {
    for (const path of ['/explore', '/wallet', '/ranking', '/no/such/page']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { name: "We couldn't find that page" })).toBeVisible();
    }
    await expectAccessible(page, '404');
  });

  test('policy pages open from the footer', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
    await expectAccessible(page, 'terms');
  });

  test('navigation scrolls to the top, and back returns to the saved position', async ({
    page,
  }) => {
    await page.goto('/');
    await page.evaluate(() => window.scrollTo(0, 900));
    await page.waitForFunction(() => window.scrollY > 500);
    const saved = await page.evaluate(() => window.scrollY);
    // A DOM click: Playwright's click() would first scroll the footer link into view, and
    // the position saved on leaving would then be the footer's, not the one read above.
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Cookie Policy' })
      .dispatchEvent('click');
    await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 50, saved);
  });
});
