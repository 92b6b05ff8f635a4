import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, expectAccessible, snap, test } from './fixtures';
import { createAccount, signIn } from './support';

/**
 * The image studio with the offline engine (the default): credits bought through the local
 * test checkout, pictures drawn from the prompt, real upscaling, posts on the public profile.
 */

/** Width and height of a PNG, read from its header (what a user's image viewer would say). */
async function pngSize(request: APIRequestContext, url: string): Promise<[number, number]> {
  const response = await request.get(url);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/png');
  const body = await response.body();
  return [body.readUInt32BE(16), body.readUInt32BE(20)];
}

async function buy(
  page: Page,
  pack: 'Image Generation Credits, $5.00' | 'Model Training Credit, $10.00',
) {
  await page.getByRole('button', { name: 'Buy Credits' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Buy Credits' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: `Checkout: ${pack}` }).click();
  await expect(page).toHaveURL(/\/pay\/checkout\//);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
}

test.describe('image studio', () => {
  test('buys credits, generates 2 images, upscales one, posts it, and deletes the post', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await page.goto('/generate');
    await expect(page.getByRole('heading', { name: 'Image Studio' })).toBeVisible();
    await expect(page.getByTestId('image-credits')).toHaveText('0');
    await expect(page.getByText('You have no image credits left.')).toBeVisible();
    await expectAccessible(page, 'image studio, no credits');

    await buy(page, 'Image Generation Credits, $5.00');
    await page.goto('/generate');
    await expect(page.getByTestId('image-credits')).toHaveText('100');

    await page
      .getByLabel('Prompt', { exact: true })
      .fill('A lighthouse on a hill by the sea at sunset');
    await page.getByLabel('Number of images').selectOption('2');
    await expect(page.getByText('Offline preview: without an image service')).toBeVisible();
    await page.getByRole('button', { name: 'Generate' }).click();
    await expect(page.getByTestId('generation-status')).toHaveText('Finished: 2 images.', {
      timeout: 30_000,
    });
    const results = page
      .getByRole('list', { name: 'Generated images' })
      .getByRole('listitem')
      .filter({
        has: page.getByRole('group', { name: 'Image actions' }),
      });
    await expect(results).toHaveCount(2);
    await expect(page.getByTestId('image-credits')).toHaveText('98');
    await expectAccessible(page, 'image studio, results');
    await snap(page, 'images-results');

    // Upscale the first one 2×: its pixel size doubles.
    const first = results.first();
    const original = (await first.getByRole('img').getAttribute('src'))!;
    expect(await pngSize(request, original)).toEqual([1024, 1024]);
    await first.getByRole('button', { name: 'Upscale 2×' }).click();
    const download = first.getByRole('link', { name: 'Download 2×' });
    await expect(download).toBeVisible({ timeout: 30_000 });
    await expect(first.getByText('2× upscale: 2048×2048')).toBeVisible();
    expect(await pngSize(request, (await download.getAttribute('href'))!)).toEqual([2048, 2048]);
    await expect(page.getByTestId('image-credits')).toHaveText('97');

    // Post it to the profile (the upscaled version).
    await first.getByRole('button', { name: 'Post to profile' }).click();
    const postDialog = page.getByRole('dialog', { name: 'Post to your profile' });
    await postDialog.getByLabel('Name').fill('Lighthouse at sunset');
    await postDialog.getByLabel('Description').fill('For our coast and sea unit');
    await expect(postDialog.getByLabel('Post the 2× upscale (2048×2048)')).toBeChecked();
    await postDialog.getByRole('button', { name: 'Post' }).click();
    await expect(first.getByRole('link', { name: 'On your profile' })).toBeVisible();

    // My images lists both.
    await page.getByRole('tab', { name: 'My images' }).click();
    await expect(
      page.getByRole('list', { name: 'My images' }).getByRole('group', { name: 'Image actions' }),
    ).toHaveCount(2);

    // The public profile shows the post; its page is server-rendered with an Open Graph image.
    await page.goto(`/profile/${account.username}`);
    const posts = page.getByRole('list', { name: 'Posts' });
    await expect(posts.getByRole('heading', { name: 'Lighthouse at sunset' })).toBeVisible();
    await expectAccessible(page, 'profile with posts');
    await snap(page, 'images-profile');
    await posts.getByRole('link', { name: 'Lighthouse at sunset' }).first().click();
    await expect(page).toHaveURL(
      new RegExp(`/${account.username}/a-lighthouse-on-a-hill-by-the-sea-[0-9a-f]{8}$`),
    );
    await expect(page.getByRole('heading', { name: 'Lighthouse at sunset' })).toBeVisible();
    await expect(page.getByText('For our coast and sea unit')).toBeVisible();
    const postUrl = new URL(page.url()).pathname;
    const html = await (await request.get(postUrl)).text();
    expect(html).toMatch(
      /<meta property="og:image" content="http:\/\/localhost:\d+\/uploads\/images\/[^"]+-x2\.png"/,
    );
    expect(html).toContain('Lighthouse at sunset');
    await expectAccessible(page, 'post page');
    await snap(page, 'images-post');

    // A visitor sees the post but no Delete button.
    const guest = await page.context().browser()!.newPage();
    await guest.goto(`/profile/${account.username}`.replace(/^/, new URL(page.url()).origin));
    await expect(guest.getByRole('heading', { name: 'Lighthouse at sunset' })).toBeVisible();
    await expect(guest.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await guest.close();

    // Delete it from the profile: the modal, then the toast for 4 seconds.
    await page.goto(`/profile/${account.username}`);
    await page.getByRole('button', { name: 'Delete Lighthouse at sunset' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await expect(
      confirm.getByText('Are you sure you want to permanently delete this post?'),
    ).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Post successfully deleted!' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Post Deleted');
    await expect(page.getByText('No posts yet.')).toBeVisible();
    await expect(toast).toBeHidden({ timeout: 6000 });
    expect((await request.get(postUrl)).status()).toBe(404);
  });

  test('trains a model from 5 photos (drag and drop) and generates with it; phone and dark', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await page.goto('/generate');
    await buy(page, 'Model Training Credit, $10.00');
    await page.goto('/generate?tab=models');
    await expect(page.getByTestId('training-credits')).toHaveText('1');
    await expect(page.getByTestId('image-credits')).toHaveText('100');

    await page.getByLabel('Model name').fill('Pip the hamster');
    await page.getByLabel('Subject').selectOption('pet');
    await page.getByLabel('Trigger word').fill('piphamster');
    const colours = ['#c0392b', '#d35400', '#e67e22', '#a04000', '#b9770e'];
    const photos = await Promise.all(
      colours.map(async (colour, i) => ({
        name: `pip-${i + 1}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await sharp({
          create: { width: 480, height: 360, channels: 3, background: colour },
        })
          .jpeg()
          .toBuffer(),
      })),
    );
    // Three photos dropped on the zone, two chosen with the file picker.
    const dropped = await page.evaluateHandle(
      (files) => {
        const transfer = new DataTransfer();
        for (const file of files) {
          const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
          transfer.items.add(new File([bytes], file.name, { type: 'image/jpeg' }));
        }
        return transfer;
      },
      photos.slice(0, 3).map((p) => ({ name: p.name, data: p.buffer.toString('base64') })),
    );
    await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
    await page.getByLabel('Choose photos').setInputFiles(photos.slice(3));
    await expect(page.getByTestId('photo-count')).toHaveText('5 photos chosen');
    await expect(page.getByText('Do not upload photos of children’s faces')).toBeVisible();
    await expectAccessible(page, 'train a model');
    await page.getByRole('button', { name: 'Train model' }).click();

    const card = page.locator('.model-card').filter({ hasText: 'Pip the hamster' });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('model-status')).toHaveText(/Queued|Training|Ready/);
    await expect(card.getByTestId('model-status')).toHaveText('Ready', { timeout: 60_000 });
    await expect(card.getByRole('img', { name: 'Cover of Pip the hamster' })).toBeVisible();
    await expect(card).toContainText('5 photos · Private');
    await expect(page.getByTestId('training-credits')).toHaveText('0');
    await snap(page, 'images-models');

    await card.getByRole('link', { name: 'Generate with it' }).click();
    await expect(page.getByLabel('Model', { exact: true })).toHaveValue(/[0-9a-f-]{36}/);
    await page.getByLabel('Prompt', { exact: true }).fill('sleeping in a teacup');
    await page.getByRole('button', { name: 'Generate' }).click();
    await expect(page.getByTestId('generation-status')).toHaveText('Finished: 1 image.', {
      timeout: 30_000,
    });
    const result = page
      .getByRole('list', { name: 'Generated images' })
      .getByRole('listitem')
      .first();
    await expect(result).toContainText('piphamster sleeping in a teacup');
    await expect(result).toContainText('Pip the hamster · 1024×1024');

    // Phone layout in dark mode.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.localStorage.setItem('theme', 'dark-mode'));
    await page.goto('/generate?tab=models');
    await expect(page.getByRole('heading', { name: 'Image Studio' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'studio on a phone, dark');
    await snap(page, 'images-phone-dark');
  });

  test('a post page that does not exist is a 404', async ({ request }) => {
    expect((await request.get('/nobody_here_at_all/some-image-0000')).status()).toBe(404);
  });
});
