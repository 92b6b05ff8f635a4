import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, expectAccessible, snap, test } from './fixtures';
import { createAccount, signIn } from './support';

/**
 * A book without a text (the 20038 edition of Frankenstein): opening it fetches the text from
 * the local mirror this spec runs (GUTENBERG_MIRROR in playwright.config.ts), which sends a
 * real PG text slowly enough to watch the progress.
 */
const FRANKENSTEIN = gunzipSync(
  readFileSync(path.resolve(import.meta.dirname, '../../server/seed-data/books/texts/pg84.txt.gz')),
);
const port = Number(process.env.E2E_MIRROR_PORT ?? 3350);
let mirror: Server;
const asked: string[] = [];

test.beforeAll(async () => {
  mirror = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (!/^\/cache\/epub\/20038\/pg20038\.txt$/.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': FRANKENSTEIN.length,
    });
    // Twenty pieces, 150 ms apart: three seconds of download.
    const size = Math.ceil(FRANKENSTEIN.length / 20);
    let sent = 0;
    const next = () => {
      if (sent >= FRANKENSTEIN.length) return void res.end();
      res.write(FRANKENSTEIN.subarray(sent, sent + size));
      sent += size;
      setTimeout(next, 150);
    };
    next();
  });
  await new Promise<void>((resolve) => mirror.listen(port, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  mirror.closeAllConnections();
  await new Promise((resolve) => mirror.close(resolve));
});

test.describe('texts on demand', () => {
  test('a book without a text: watch the chapters being prepared, open the first, generate a quiz', async ({
    page,
    request,
  }) => {
    const found = await (
      await request.get('/api/v1/getgutenbergbooks?searchTerm=Frankenstein&limit=20')
    ).json();
    const book = found.data.find((b: { gutenbergId: number }) => b.gutenbergId === 20038);
    expect(book, 'the 20038 edition is in the catalogue').toBeTruthy();
    expect(book.chapterCount).toBe(0);

    const account = await createAccount(request);
    await signIn(page, account);
    await page.goto(`/book/${book.url}`);
    const preparing = page.getByRole('status').filter({ hasText: 'Preparing the chapters…' });
    await expect(preparing).toBeVisible();
    await expect(
      preparing.getByRole('progressbar', { name: 'Preparing the chapters' }),
    ).toBeVisible();
    await expect(preparing.getByText(/Downloading the text \(\d+%\)/)).toBeVisible();
    await expectAccessible(page, 'book page preparing the chapters');
    await snap(page, 'texts-preparing');

    // The chapters appear without a reload.
    const chapters = page.getByRole('region', { name: 'Chapters' });
    await expect(chapters.getByRole('link', { name: 'Letter 1' })).toBeVisible({ timeout: 60_000 });
    await expect(chapters.getByRole('link', { name: 'Chapter 24' })).toBeVisible();
    await expect(page.getByText(/words, 28 chapters/)).toBeVisible();
    expect(asked).toEqual(['/cache/epub/20038/pg20038.txt']);

    await chapters.getByRole('link', { name: 'Letter 1' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Letter 1' })).toBeVisible();
    await expect(page.getByText(/You will rejoice to hear that no disaster/)).toBeVisible();
    await expect(page.getByText(/START OF (THE|THIS) PROJECT GUTENBERG/i)).toHaveCount(0);

    await page.getByRole('link', { name: 'Create materials from this chapter' }).click();
    await expect(page).toHaveURL(/\/material-generator\?bookUrl=.*chapterUrl=letter-1/);
    await expect(page.getByLabel('Reference text')).not.toHaveValue('');
    await page.getByLabel('Grade').selectOption('7th Grade (Year 8)');
    await page.getByLabel('Type', { exact: true }).selectOption('Quiz');
    await page.getByLabel('Subject').press('Enter');
    await expect(page.getByText('Finished', { exact: true })).toBeVisible({ timeout: 60_000 });
    const card = page.locator('.material-card').first();
    await expect(card.getByRole('heading', { name: 'Part 1: Multiple choice' })).toBeVisible();
    await expect(card.getByText('Answer key')).toBeVisible();
  });

  test('a chapter URL that does not exist yet waits on the book page, then opens', async ({
    page,
    request,
  }) => {
    const found = await (
      await request.get('/api/v1/getgutenbergbooks?searchTerm=Frankenstein&limit=20')
    ).json();
    // Another edition without a text, which the mirror does not have: a failure in plain words.
    const missing = found.data.find((b: { gutenbergId: number }) =>
      [41445, 42324].includes(b.gutenbergId),
    );
    await page.goto(`/book/${missing.url}/chapter-1`);
    await expect(page).toHaveURL(new RegExp(`/book/${missing.url}\\?chapter=chapter-1$`));
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Project Gutenberg has no plain text of this book.', {
      timeout: 30_000,
    });
    await expect(alert.getByRole('link', { name: /Read it at Project Gutenberg/ })).toBeVisible();
    await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expectAccessible(page, 'book page after a failed fetch');
  });
});
