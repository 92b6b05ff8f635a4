import path from 'node:path';
import { expect, expectAccessible, snap, test } from './fixtures';
import { createAccount, signIn } from './support';

const FIXTURES = path.resolve(import.meta.dirname, '../../server/src/modules/imports/fixtures');

test.describe('file import', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a teacher imports a Word file and a photo of a page, sees both texts appended, and generates from them', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await page.goto('/material-generator');
    const reference = page.getByLabel('Reference text');
    await reference.fill('Notes for the science unit.');

    await page
      .getByLabel('Choose files')
      .setInputFiles([path.join(FIXTURES, 'lesson.docx'), path.join(FIXTURES, 'photo.jpg')]);
    const list = page.getByRole('list', { name: 'Files to import' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(page.getByText(/Importing \d of 2 files/)).toBeVisible();
    await expectAccessible(page, 'generator while importing');

    // Both files end 'Added', in the order chosen, under headings with their names.
    await expect(list.getByText(/^Added: /)).toHaveCount(2, { timeout: 60_000 });
    const text = await reference.inputValue();
    expect(text.startsWith('Notes for the science unit.')).toBe(true);
    const docx = text.indexOf('lesson.docx');
    const photo = text.indexOf('photo.jpg');
    expect(docx).toBeGreaterThan(0);
    expect(photo).toBeGreaterThan(docx);
    expect(text).toContain('The Water Cycle');
    expect(text).toContain('This process is called photosynthesis');
    await snap(page, 'imports-appended');

    // A broken file fails on its own, with its message, and adds nothing.
    await page.getByLabel('Choose files').setInputFiles(path.join(FIXTURES, 'truncated.docx'));
    await expect(list.getByText('Could not be imported')).toBeVisible({ timeout: 30_000 });
    await expect(list.locator('.file-import-error')).not.toBeEmpty();
    expect(await reference.inputValue()).toBe(text);

    // Generate from the imported texts.
    await page.getByLabel('Name').fill('Water and plants');
    await page.getByLabel('Subject').fill('Science');
    await page.getByLabel('Grade').selectOption('5th Grade (Year 6)');
    await page.getByLabel('Type', { exact: true }).selectOption('Quiz');
    await page.getByRole('button', { name: 'Generate Material' }).click();
    await expect(page.getByText('Finished', { exact: true })).toBeVisible({ timeout: 30_000 });
    const card = page.locator('.material-card').first();
    await expect(card.getByRole('heading', { name: 'Water and plants' })).toBeVisible();
    await expect(card.getByText('Answer key')).toBeVisible();
  });
});
