import { expect, expectAccessible, snap, test } from './fixtures';

test.describe('book catalogue', () => {
  // Six pages with an axe scan each: more than the default minute on a busy 2-core machine.
  test.describe.configure({ timeout: 180_000 });
  test('a teacher browses: home → subject → search → book → chapter → next chapter', async ({
    page,
  }) => {
    // Home shows the 8 most downloaded books.
    const home = await page.goto('/');
    expect(home?.status()).toBe(200);
    const popular = page.getByRole('region', { name: 'Popular books' });
    await expect(popular.getByRole('listitem')).toHaveCount(8);
    await expect(popular.getByRole('link', { name: /^Frankenstein/ })).toBeVisible();
    await expectAccessible(page, 'home');
    await snap(page, 'books-home-desktop');

    // A subject from the header's Book Materials menu.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Book Materials' }).click();
    await nav.getByRole('link', { name: 'Drama', exact: true }).click();
    await expect(page).toHaveURL(/\/books\/drama$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Drama Books' })).toBeVisible();
    const categories = page.getByRole('navigation', { name: 'Book categories' });
    await expect(categories.getByRole('link', { name: /^Drama/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(
      page.getByRole('navigation', { name: 'Sort books' }).getByRole('link', { name: 'Popular' }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('link', { name: 'Romeo and Juliet', exact: true })).toBeVisible();
    await expectAccessible(page, 'subject page');
    await snap(page, 'books-subject-desktop');

    // Search from the directory (Enter submits), with a typo.
    await page.goto('/books');
    const search = page.getByRole('searchbox', { name: 'Search books by title or author' });
    await search.fill('alice wonderland');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/books\?query=alice\+wonderland/);
    await expect(page.getByRole('searchbox')).toHaveValue('alice wonderland');
    const result = page.getByRole('link', {
      name: "Alice's Adventures in Wonderland",
      exact: true,
    });
    await expect(result.first()).toBeVisible();
    await expectAccessible(page, 'search results');
    await snap(page, 'books-search-desktop');

    // The book page: cover, authors with years, facts, chapter list, related slider.
    await result.first().click();
    await expect(page).toHaveURL(/\/book\/alice-s-adventures-in-wonderland$/);
    await expect(
      page.getByRole('heading', { level: 1, name: "Alice's Adventures in Wonderland" }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: /Lewis Carroll \(1832–1898\)/ })).toBeVisible();
    await expect(page.getByText('Reading level')).toBeVisible();
    const chapters = page.getByRole('region', { name: 'Chapters' });
    await expect(chapters.getByRole('listitem')).toHaveCount(12);
    const jsonLd = await page.locator('script[type="application/ld+json"]').textContent();
    expect(JSON.parse(jsonLd ?? '{}')).toMatchObject({
      '@type': 'Book',
      name: "Alice's Adventures in Wonderland",
    });
    const slider = page.getByRole('list', { name: /use the arrow keys to scroll/ });
    await expect(slider).toBeVisible();
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expectAccessible(page, 'book page');
    await snap(page, 'books-book-desktop');

    // A chapter, then the next one.
    await chapters.getByRole('link', { name: 'Chapter I: Down the Rabbit-Hole' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Chapter I: Down the Rabbit-Hole' }),
    ).toBeVisible();
    await expect(page.getByText('Alice was beginning to get very tired')).toBeVisible();
    await expect(
      page.getByRole('link', { name: 'Create materials from this chapter' }),
    ).toHaveAttribute(
      'href',
      '/material-generator?bookUrl=alice-s-adventures-in-wonderland&chapterUrl=chapter-i-down-the-rabbit-hole',
    );
    await expectAccessible(page, 'chapter page');
    await snap(page, 'books-chapter-desktop');
    await page.getByRole('link', { name: /Next: Chapter II: The Pool of Tears/ }).click();
    await expect(page).toHaveURL(/chapter-ii-the-pool-of-tears$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Chapter II: The Pool of Tears' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: /Previous: Chapter I/ })).toBeVisible();
    await page.getByText(/All chapters \(12\)/).click();
    await expect(page.getByRole('link', { name: 'Chapter XII: Alice’s Evidence' })).toBeVisible();
    await expectAccessible(page, 'next chapter with the chapter menu open');
  });

  test('a teacher who types a book’s title finds that book first (issue 23)', async ({ page }) => {
    await page.goto('/books');
    const search = page.getByRole('searchbox', { name: 'Search books by title or author' });
    // As teachers type them: lower case, no article, the author before or after, a typo.
    const searches: Array<[string, RegExp, RegExp]> = [
      ['war of the worlds', /^The War of the Worlds$/i, /Wells/],
      ['kipling just so', /^Just So Stories/i, /Kipling/],
      ['origin of species darwin', /Origin of Species/i, /Darwin/],
      ['frankenstien', /^Frankenstein/i, /Shelley/],
    ];
    for (const [typed, title, author] of searches) {
      await search.fill(typed);
      await search.press('Enter');
      const results = page.getByRole('region', { name: new RegExp(`match “${typed}”`) });
      const first = results.getByRole('listitem').first();
      await expect(first.getByRole('heading', { level: 3 }), typed).toHaveText(title);
      await expect(first.getByText(author), typed).toBeVisible();
    }
    await expectAccessible(page, 'search results with a typo corrected');
  });

  test('phone layout: directory, book and chapter at 375 px', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const [path, name] of [
      ['/books', 'books-directory-phone'],
      ['/book/pride-and-prejudice', 'books-book-phone'],
      ['/book/pride-and-prejudice/chapter-i', 'books-chapter-phone'],
      ['/', 'books-home-phone'],
    ] as const) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expectAccessible(page, name);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        path,
      ).toBeLessThanOrEqual(375);
      await snap(page, name);
    }
  });

  test('the Random and Recent tabs and paging keep the other parameters', async ({ page }) => {
    await page.goto('/books/poetry?query=poems');
    await page
      .getByRole('navigation', { name: 'Sort books' })
      .getByRole('link', { name: 'Recent' })
      .click();
    await expect(page).toHaveURL(/\/books\/poetry\?query=poems&sort=createdAt/);
    await page
      .getByRole('navigation', { name: 'Sort books' })
      .getByRole('link', { name: 'Random' })
      .click();
    await expect(page).toHaveURL(/sort=random&seed=\d+/);
    await page
      .getByRole('navigation', { name: 'Pages of books' })
      .getByRole('link', { name: '2', exact: true })
      .click();
    await expect(page).toHaveURL(/query=poems&sort=random&seed=\d+&page=2/);
    await expectAccessible(page, 'random page 2');
  });

  test('author pages, dark mode, and 404 for unknown books and chapters', async ({ page }) => {
    await page.goto('/books/mark-twain');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Books by Mark Twain' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.goto('/book/moby-dick-or-the-whale/chapter-1-loomings');
    await expectAccessible(page, 'chapter in dark mode');
    await snap(page, 'books-chapter-dark');
    for (const path of [
      '/book/no-such-book',
      '/book/moby-dick-or-the-whale/no-such-chapter',
      '/books/no-such-author-or-subject',
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { name: "We couldn't find that page" })).toBeVisible();
    }
  });
});
