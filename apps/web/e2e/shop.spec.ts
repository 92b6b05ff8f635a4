import { expect, expectAccessible, snap, test } from './fixtures';
import { createAccount, signIn } from './support';

/**
 * The print shop with the offline adapters (the default): a prompt becomes an artwork and four
 * products with mockups, a product is bought on the local test checkout with an address, and
 * the order moves on in the Orders tab (the test server's order clock takes 5 s a step).
 */
test('generate an artwork, buy a t-shirt, and follow the order into production', async ({
  page,
}) => {
  const account = await createAccount(page.request);
  await signIn(page, account);
  await page.goto('/shop');
  await expect(page.getByRole('heading', { name: 'Classroom art, printed' })).toBeVisible();

  // No image credit yet: the Buy Credits dialog opens, and the local checkout sells a pack.
  await page.getByLabel('Prompt').fill('A friendly owl reading a book under the stars');
  await page.getByRole('button', { name: 'Generate products' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy Credits' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Checkout: Image Generation Credits, $5.00' }).click();
  await expect(page).toHaveURL(/\/pay\/checkout\//);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();

  await page.goto('/shop');
  await page.getByLabel('Prompt').fill('A friendly owl reading a book under the stars');
  await page.getByRole('button', { name: 'Generate products' }).click();
  await expect(page.getByRole('button', { name: 'Generating' })).toBeDisabled();
  // Checked every 2 s; the artwork's page opens when its products are ready.
  await expect(page).toHaveURL(/\/shop\/a-friendly-owl-reading-a-book-under-the-[0-9a-f]{6}$/, {
    timeout: 90_000,
  });
  const products = page.getByRole('list', { name: 'Products of this artwork' });
  await expect(products.getByRole('listitem')).toHaveCount(4);
  for (const name of ['Framed Poster', 'Ceramic Mug', 'T-Shirt', 'Tote Bag']) {
    await expect(products.getByRole('link', { name, exact: true })).toBeVisible();
  }
  // Every card shows a mockup (the images load), its price, Free Shipping and Buy now.
  const images = products.locator('img');
  await expect(images).toHaveCount(4);
  for (const img of await images.all()) {
    await expect(img).toHaveJSProperty('complete', true);
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(600);
  }
  await expect(products.getByText('Free Shipping')).toHaveCount(4);
  await expect(products.getByRole('link', { name: 'Buy now' })).toHaveCount(4);

  await products.getByRole('link', { name: 'T-Shirt', exact: true }).click();
  await expect(page).toHaveURL(/\/shop\/a-friendly-owl[^/]*\/t-shirt$/);
  await expect(page.getByRole('heading', { name: 'T-Shirt', level: 1 })).toBeVisible();
  await expect(page.locator('.product-price strong')).toHaveText('$22.99');
  await expect(page.getByRole('button', { name: /Picture \d+ of 30/ })).toHaveCount(30);
  await page.getByRole('radio', { name: /^2XL/ }).check();
  await expect(page.locator('.product-price strong')).toHaveText('$24.99');
  await expectAccessible(page, 'product page');
  await page.getByRole('button', { name: 'Buy now' }).click();

  // The local checkout asks for the address Stripe would collect.
  await expect(page).toHaveURL(/\/pay\/checkout\//);
  await expect(page.getByText('Shipping address (Free Shipping)')).toBeVisible();
  // Pay without an address: each missing field says so in plain words, and nothing is paid.
  await page.getByRole('button', { name: 'Pay $24.99' }).click();
  await expect(page.getByText('Please enter the name to ship to.')).toBeVisible();
  await expect(page.getByText('Please enter the ZIP or postal code.')).toBeVisible();
  await expect(page.getByText(/Invalid field/)).toHaveCount(0);
  await expect(page.getByLabel('Full name')).toBeFocused();
  await expectAccessible(page, 'checkout with a missing address');
  await snap(page, 'shop-checkout-missing-address');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  await snap(page, 'shop-checkout-missing-address-dark');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Address', { exact: true }).fill('12 School Lane');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('State / region').fill('IL');
  await page.getByLabel('ZIP / postal code').fill('62701');
  await page.getByRole('button', { name: 'Pay $24.99' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await expect(page.getByText('ships free to Ada Lovelace, Springfield, US')).toBeVisible();

  await page.getByRole('link', { name: 'Follow your order' }).click();
  const row = page.getByRole('row').filter({ hasText: 'T-Shirt' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('2XL × 1');
  await expect(row).toContainText('$24.99');
  // The order clock moves it on; the Orders tab looks again while it is on its way.
  await expect(row).toContainText('In production', { timeout: 20_000 });
});
