import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, expectAccessible, snap, test } from './fixtures';
import { createAccount, grantAdmin, signIn } from './support';

/** Console errors of a page the fixture does not watch (a second browser context). */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()))
      return;
    errors.push(message.text());
  });
  return errors;
}

test.describe('blog', () => {
  // Two browsers, a dozen pages with an axe scan each, on a busy 2-core machine.
  test.describe.configure({ timeout: 300_000 });

  test('an admin writes and publishes a post with a thumbnail; a visitor finds it by search, category and tag, reads it and follows a related post', async ({
    page,
    browser,
    request,
  }) => {
    const word = `zephyrine${Date.now().toString(36)}`;
    const title = `Ghost stories for a grey November ${word}`;
    const account = await createAccount(request, { firstName: 'Shirley' });

    // A teacher who is not an admin gets the 404 page, and no admin link.
    await signIn(page, account);
    await page.goto('/admin/blog');
    await expect(
      page.getByRole('heading', { level: 1, name: "We couldn't find that page" }),
    ).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Welcome Shirley!' }).click();
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Blog posts (admin)' })).toHaveCount(0);

    // The operator makes the account an admin with the real command, while the server runs.
    expect(grantAdmin(account.email)).toContain(
      `${account.email} (${account.username}) is now an admin.`,
    );

    await page.goto('/');
    await nav.getByRole('button', { name: 'Welcome Shirley!' }).click();
    await nav.getByRole('link', { name: 'Blog posts (admin)' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Blog posts' })).toBeVisible();
    const tabs = page.getByRole('navigation', { name: 'Posts by state' });
    await expect(tabs.getByRole('link', { name: /^All \(\d+\)$/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(
      page.getByRole('link', {
        name: 'Teaching Frankenstein and Dracula: a Gothic unit with free texts',
        exact: true,
      }),
    ).toBeVisible();
    await expectAccessible(page, 'admin post list');
    await snap(page, 'blog-admin-list');

    // Write the post.
    await page.getByRole('link', { name: 'New post' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New post' })).toBeVisible();
    // The author defaults to the admin's profile.
    await expect(page.getByLabel('First name')).toHaveValue('Shirley');
    await expect(page.getByLabel('Last name')).toHaveValue('Lovelace');
    await page.getByLabel('Title').fill(title);
    // The address follows the title by the slug rule.
    await expect(page.getByLabel('Address')).toHaveValue(
      `ghost-stories-for-a-grey-november-${word}`,
    );
    await page
      .getByLabel('Summary (optional)')
      .fill('Short Gothic tales that fit one lesson, with a quiz and an exit ticket for each.');
    await page
      .getByLabel('Markdown')
      .fill(
        [
          `Ghost stories are the shortest way into the Gothic, and ${word} is our word for them.`,
          '',
          '## Why ghosts work in class',
          '',
          '- They are short: one lesson, one story.',
          '- They reward **close reading**: every detail is a clue.',
          '',
          'Read more in [the Frankenstein chapter](/book/frankenstein-or-the-modern-prometheus/chapter-5).',
          '',
          '<img src="x" onerror="window.pwned = true"><script>window.pwned = true</script>',
        ].join('\n'),
      );
    const preview = page.getByRole('region', { name: /^Preview/ });
    await expect(
      preview.getByRole('heading', { level: 2, name: 'Why ghosts work in class' }),
    ).toBeVisible();
    await expect(preview.locator('strong')).toHaveText('close reading');
    await page.getByRole('checkbox', { name: 'Book Guides' }).check();
    await page.getByLabel('Tags').fill('Gothic, Ghost stories');
    const thumbnail = await sharp({
      create: { width: 1600, height: 1000, channels: 3, background: { r: 91, g: 58, b: 122 } },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000"><circle cx="1200" cy="300" r="220" fill="#fbbf24"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    await page.getByLabel('Upload a picture').setInputFiles({
      name: 'ghosts.png',
      mimeType: 'image/png',
      buffer: thumbnail,
    });
    await expect(page.getByRole('img', { name: 'Thumbnail preview' })).toBeVisible();
    await expectAccessible(page, 'post editor');
    await snap(page, 'blog-admin-editor');

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByText('The post is published.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/blog\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Edit post' })).toBeVisible();
    await expect(page.locator('.editor-status .state')).toHaveText('Published');
    // The uploaded picture is now the server's re-encoded copy.
    await expect(page.getByRole('img', { name: 'Thumbnail preview' })).toHaveAttribute(
      'src',
      /^\/uploads\/blog\/[0-9a-f-]{36}\.webp$/,
    );

    // A visitor (another browser, never signed in).
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    const visitorErrors = watchConsole(visitor);

    // Search: Enter in the box.
    const listResponse = await visitor.goto('/blog');
    expect(listResponse?.status()).toBe(200);
    await expect(visitor.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    const sidebar = visitor.getByRole('complementary', { name: 'Blog sidebar' });
    const search = sidebar.getByRole('searchbox', { name: 'Search the blog' });
    await search.fill(word);
    await search.press('Enter');
    await expect(visitor).toHaveURL(new RegExp(`/blog\\?searchTerm=${word}$`));
    await expect(
      visitor.getByRole('heading', { level: 1, name: `Search results for “${word}”` }),
    ).toBeVisible();
    await expect(visitor.getByText('1 post', { exact: true })).toBeVisible();
    await expect(visitor.getByRole('link', { name: title })).toBeVisible();
    await expectAccessible(visitor, 'blog search results');
    await snap(visitor, 'blog-search-results');

    // Search: the icon, for a word of the body only; then a search that finds nothing.
    await sidebar.getByRole('searchbox', { name: 'Search the blog' }).fill('ghosts shortest');
    await sidebar.getByRole('button', { name: 'Search' }).click();
    await expect(visitor).toHaveURL(/searchTerm=ghosts\+shortest/);
    await expect(visitor.getByRole('link', { name: title })).toBeVisible();
    await sidebar.getByRole('searchbox', { name: 'Search the blog' }).fill('qqqzzzxxx');
    await sidebar.getByRole('button', { name: 'Search' }).click();
    await expect(visitor.getByText('No posts found.')).toBeVisible();
    await visitor.getByRole('link', { name: 'See all posts' }).click();
    await expect(visitor).toHaveURL(/\/blog$/);

    // Category from the sidebar (slug rule).
    await sidebar
      .getByRole('navigation', { name: 'Categories' })
      .getByRole('link', { name: /^Book Guides/ })
      .click();
    await expect(visitor).toHaveURL(/\/blog\/category\/book-guides$/);
    await expect(visitor.getByRole('heading', { level: 1, name: 'Book Guides' })).toBeVisible();
    await expect(
      sidebar
        .getByRole('navigation', { name: 'Categories' })
        .getByRole('link', { name: /^Book Guides/ }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(visitor.getByRole('link', { name: title })).toBeVisible();
    await expectAccessible(visitor, 'blog category page');
    await snap(visitor, 'blog-category');

    // Tag from the sidebar.
    await sidebar.getByRole('link', { name: 'Ghost stories', exact: true }).click();
    await expect(visitor).toHaveURL(/\/blog\/tag\/ghost-stories$/);
    await expect(
      visitor.getByRole('heading', { level: 1, name: 'Posts tagged “Ghost stories”' }),
    ).toBeVisible();
    await expectAccessible(visitor, 'blog tag page');

    // The post.
    await visitor.getByRole('link', { name: title }).click();
    await expect(visitor).toHaveURL(new RegExp(`/blog/ghost-stories-for-a-grey-november-${word}$`));
    await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(visitor.getByText('By Shirley Lovelace').first()).toBeVisible();
    await expect(
      visitor.getByRole('heading', { level: 2, name: 'Why ghosts work in class' }),
    ).toBeVisible();
    const hero = visitor.locator('img.post-hero');
    await expect(hero).toHaveAttribute('src', /^\/uploads\/blog\/[0-9a-f-]{36}\.webp$/);
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    // The payload in the body did nothing.
    expect(await visitor.evaluate(() => (window as { pwned?: boolean }).pwned)).toBeUndefined();
    expect(await visitor.locator('.post-body script, .post-body [onerror]').count()).toBe(0);
    await expect(
      visitor.getByRole('heading', { level: 2, name: 'Shirley Lovelace' }),
    ).toBeVisible();
    const jsonLd = JSON.parse(
      (await visitor.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
    );
    expect(jsonLd).toMatchObject({ '@type': 'BlogPosting', headline: title });
    await expect(visitor.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
    await expect(visitor.locator('meta[property="og:image"]')).toHaveAttribute(
      'content',
      /^http:\/\/localhost:\d+\/uploads\/blog\/.+\.webp$/,
    );
    await expect(visitor.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      new RegExp(`/blog/ghost-stories-for-a-grey-november-${word}$`),
    );
    await expectAccessible(visitor, 'blog post');
    await snap(visitor, 'blog-post');

    // A related post (shares the Gothic tag and the Book Guides category).
    const related = visitor.getByRole('region', { name: 'Related posts' });
    await related
      .getByRole('link', {
        name: 'Teaching Frankenstein and Dracula: a Gothic unit with free texts',
      })
      .click();
    await expect(
      visitor.getByRole('heading', {
        level: 1,
        name: 'Teaching Frankenstein and Dracula: a Gothic unit with free texts',
      }),
    ).toBeVisible();
    await expect(visitor.getByRole('table')).toBeVisible();
    await expectAccessible(visitor, 'related blog post');

    // In the feed, and an unknown post is a real 404.
    const feed = await visitor.request.get('/blog/rss.xml');
    expect(feed.headers()['content-type']).toContain('application/rss+xml');
    expect(await feed.text()).toContain(`<title>${title}</title>`);
    const missing = await visitor.goto('/blog/no-such-post-anywhere');
    expect(missing?.status()).toBe(404);
    await expect(
      visitor.getByRole('heading', { level: 1, name: "We couldn't find that page" }),
    ).toBeVisible();

    // The admin unpublishes it: readers lose it at once.
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await expect(page.getByText('The draft is saved.')).toBeVisible();
    const gone = await visitor.goto(`/blog/ghost-stories-for-a-grey-november-${word}`);
    expect(gone?.status()).toBe(404);

    expect(visitorErrors, 'visitor console errors').toEqual([]);
    await visitorContext.close();
  });

  test('the blog on a phone, in dark mode', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.addInitScript(() => window.localStorage.setItem('theme', 'dark-mode'));
    await page.goto('/blog');
    // On a phone the search box comes before the posts.
    const search = page.getByRole('searchbox', { name: 'Search the blog' });
    await expect(search).toBeVisible();
    await search.fill('frankenstein');
    await search.press('Enter');
    await expect(
      page
        .getByRole('region', { name: 'Posts', exact: true })
        .getByRole('link', { name: /^Teaching Frankenstein and Dracula/ }),
    ).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'blog on a phone, dark');
    await snap(page, 'blog-mobile-dark');
    await page.goto('/blog/reading-levels-without-the-myths');
    await expect(
      page.getByRole('heading', { level: 1, name: /^Reading levels without the myths/ }),
    ).toBeVisible();
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'blog post on a phone, dark');
    await snap(page, 'blog-post-mobile-dark');
  });
});
