import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, snap, test } from './fixtures';
import { createAccount, signIn, type TestAccount } from './support';

/**
 * Billing with the local payments adapter (the default): the test checkout, portal and
 * onboarding pages fulfil through the same event path as Stripe's webhooks.
 */

const PASSAGE = `The sun had not yet risen when Anna left the farmhouse. She carried a lantern in one hand and a basket of bread in the other, because the path to the mill was long and the morning was cold. Her brother Tomas had promised to meet her at the old bridge, but when she reached it the bridge was empty.

Anna waited beside the river for a long time. The water was high after three days of rain, and it roared under the wooden planks. At last she saw a light moving among the trees. It was Tomas, and he was running. He told her that the miller had fallen ill in the night and that the mill wheel had stopped.

Together they hurried along the bank. When they reached the mill, the miller's daughter was standing at the door with a candle. She thanked them for the bread and asked Anna to sit with her father while Tomas went to fetch the doctor from the village.`;

/** Spends the account's free generations through the API. */
async function useUpCredits(request: APIRequestContext, account: TestAccount) {
  for (let i = 0; i < 5; i++) {
    const res = await request.post('/api/v1/materials/generatematerial', {
      headers: { authorization: `Bearer ${account.token}` },
      data: {
        name: `Mill story ${i + 1}`,
        subject: 'English',
        grade: '4th Grade (Year 5)',
        type: 'Quiz',
        referenceText: PASSAGE,
        // Few enough for this short story to answer in full, so each one is charged (decision 025).
        descriptionText: '2 questions',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

test.describe('billing', () => {
  test('a teacher with no credits subscribes, generates again, then cancels in the portal', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await useUpCredits(request, account);
    await signIn(page, account);

    // Out of credits: the generator sends the teacher to /subscription.
    await page.goto('/material-generator');
    await page
      .getByRole('link', {
        name: 'You need a subscription to keep making materials. Click here to manage your subscription.',
      })
      .click();
    await expect(page).toHaveURL(/\/subscription$/);
    await expect(page.getByRole('heading', { name: 'Subscription and credits' })).toBeVisible();
    await expect(page.getByText('You are on the Free plan: 0 generations left.')).toBeVisible();
    const plans = page.getByRole('list', { name: 'Plans' });
    await expect(plans.getByText('$9.99')).toBeVisible();
    await expect(plans.getByText('/ month')).toBeVisible();
    await expect(plans.getByText('5 free generations with every new account.')).toBeVisible();
    await expectAccessible(page, 'subscription page');
    await snap(page, 'billing-subscription');

    // Buy Now → the test checkout → Pay → /thankyou.
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await expect(page).toHaveURL(/\/pay\/checkout\/cs_local_[A-Za-z0-9]{24}$/);
    await expect(page.getByText('Test checkout — no card is charged.')).toBeVisible();
    await expect(page.getByText('Unlimited plan', { exact: true })).toBeVisible();
    await expectAccessible(page, 'test checkout');
    await snap(page, 'billing-test-checkout');
    await page.getByRole('button', { name: 'Pay $9.99' }).click();
    await expect(page).toHaveURL(/\/thankyou\?session_id=cs_local_/);
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(
      page.getByText(
        'Your Unlimited plan is active: the Material Generator has no limit any more.',
      ),
    ).toBeVisible();
    await expect(page.getByText(/^Renews on .* for \$9\.99/)).toBeVisible();
    await expectAccessible(page, 'thank you');
    await snap(page, 'billing-thankyou');

    // The generator is unlocked at once.
    await page.getByRole('link', { name: 'Open the Material Generator' }).click();
    await expect(page.getByText('You need a subscription to keep making materials.')).toHaveCount(
      0,
    );
    await page.getByLabel('Name').fill('After subscribing');
    await page.getByLabel('Subject').fill('English');
    await page.getByLabel('Grade').selectOption('4th Grade (Year 5)');
    await page.getByLabel('Type', { exact: true }).selectOption('Quiz');
    await page.getByLabel('Reference text').fill(PASSAGE);
    await page.getByRole('button', { name: 'Generate Material' }).click();
    await expect(page.getByText('Finished', { exact: true })).toBeVisible({ timeout: 30_000 });

    // The account: Manage Subscription opens the portal; cancel there.
    await page.goto('/account?tab=subscription');
    const panel = page.getByRole('tabpanel');
    await expect(panel.getByText('Active', { exact: true })).toBeVisible();
    await expectAccessible(page, 'account subscription');
    await panel.getByRole('button', { name: 'Manage Subscription' }).click();
    await expect(page).toHaveURL(/\/pay\/portal$/);
    await expect(page.getByTestId('portal-status')).toHaveText(/^Active: renews on /);
    await expectAccessible(page, 'test portal');
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await expect(page.getByTestId('portal-status')).toHaveText(/^Cancelled: ends on /);
    await expect(page.getByRole('button', { name: 'Resume plan' })).toBeVisible();
    await snap(page, 'billing-test-portal');
    await page.getByRole('link', { name: '← Back to Chapterwise' }).click();
    await expect(page).toHaveURL(/\/account\?tab=subscription$/);
    await expect(panel.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(panel.getByText(/when the plan ends/)).toBeVisible();

    // Cancelled plans run to the end of the period; the test tools end it now.
    await panel.getByRole('button', { name: 'Manage Subscription' }).click();
    await page.getByText('Test tools').click();
    await page.getByRole('button', { name: 'End the billing period now' }).click();
    await expect(page.getByText('Your Unlimited plan has ended.')).toBeVisible();
    await page.goto('/account?tab=subscription');
    await expect(panel.getByRole('button', { name: 'Buy Now' })).toBeVisible();

    // Orders, newest first, in dollars.
    await page.getByRole('tab', { name: 'Orders' }).click();
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Unlimited plan');
    await expect(rows.nth(1)).toContainText('$9.99');
    await expect(rows.nth(1)).toContainText('Paid');
  });

  test('buys image credits from the dashboard’s Buy Credits modal', async ({ page, request }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Buy Credits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Buy Credits' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Model Training Credit' })).toBeVisible();
    await expect(dialog.getByText('$10.00')).toBeVisible();
    await expect(dialog.getByText('$5.00')).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^Checkout/ })).toHaveCount(2);
    await expectAccessible(page, 'buy credits modal');
    await snap(page, 'billing-buy-credits');

    // Cancel on the checkout comes back here and buys nothing.
    await dialog.getByRole('button', { name: 'Checkout: Image Generation Credits, $5.00' }).click();
    await expect(page).toHaveURL(/\/pay\/checkout\//);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.getByRole('button', { name: 'Buy Credits' }).click();
    await dialog.getByRole('button', { name: 'Checkout: Image Generation Credits, $5.00' }).click();
    await expect(
      page.getByText('100 image generation credits, usable with any model.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Pay $5.00' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(page.getByText('+100 image generation credits')).toBeVisible();
    await expect(page.getByText(/You now have 100 image generation credits/)).toBeVisible();

    await page.goto('/account?tab=orders');
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText('Image Generation Credits');
    await expect(rows.nth(1)).toContainText('$5.00');
    await expect(rows.nth(1)).toContainText('Paid');
    await expect(rows.nth(2)).toContainText('Canceled');
    await expectAccessible(page, 'orders');
  });

  test('completes seller onboarding: Restricted until then', async ({ page, request }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await page.goto('/account?tab=seller');
    await expect(page.getByTestId('seller-status')).toHaveText('Restricted');
    await expectAccessible(page, 'seller settings');
    await page.getByRole('button', { name: 'Become an Authorized Seller' }).click();
    await expect(page).toHaveURL(/\/pay\/onboarding\?account=acct_local_/);
    await expectAccessible(page, 'test onboarding');
    await page.getByRole('button', { name: 'Complete onboarding' }).click();
    await expect(page).toHaveURL(/\/account\?tab=seller$/);
    await expect(page.getByTestId('seller-status')).toHaveText('Authorized seller');
    await expect(page.getByText('$0.00 available · $0.00 pending')).toBeVisible();
    await snap(page, 'billing-seller-enabled');
  });

  test('an onboarding answer without a url re-enables the button as <Something went wrong>', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await page.route('**/api/v1/payment/onboard-user', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }),
    );
    await page.goto('/account?tab=seller');
    await page.getByRole('button', { name: 'Become an Authorized Seller' }).click();
    const button = page.getByRole('button', { name: '<Something went wrong>' });
    await expect(button).toBeEnabled();
    await expect(page.getByTestId('seller-status')).toHaveText('Restricted');
  });

  test('buys a chapter’s ready-made materials into Your Materials; a subscriber adds them free', async ({
    page,
    request,
  }) => {
    const chapterPath = '/book/frankenstein-or-the-modern-prometheus/letter-1';
    const buyer = await createAccount(request);
    await signIn(page, buyer);
    await page.goto(chapterPath);
    const section = page.getByRole('region', { name: 'Ready-made materials for this chapter' });
    await expect(section.getByText(/Get your own copies of these 4 materials/)).toBeVisible();
    await section.getByRole('button', { name: 'Buy for $2.99' }).click();
    await expect(page).toHaveURL(/\/pay\/checkout\//);
    await expect(
      page.getByText(/^Chapter's ready-made materials: Frankenstein.*Letter 1$/),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Pay $2.99' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(page.getByText(/are now in Your Materials/)).toBeVisible();
    await page.getByRole('link', { name: 'Open Your Materials' }).click();
    await expect(page.locator('.material-card')).toHaveCount(4);
    await expect(page.locator('.material-card').filter({ hasText: 'Letter 1 Quiz' })).toHaveCount(
      1,
    );
    // Bought: the chapter now offers to add them back, not to buy again.
    await page.goto(chapterPath);
    await expect(section.getByRole('button', { name: 'Add to my materials' })).toBeVisible();
    await expectAccessible(page, 'chapter pack bought');

    const subscriber = await createAccount(request);
    const headers = { authorization: `Bearer ${subscriber.token}` };
    const start = await request.post('/api/v1/payment/create-checkout-session', {
      headers,
      data: {},
    });
    const { id } = (await start.json()) as { id: string };
    expect((await request.post(`/api/v1/payment/local/checkout/${id}/pay`, { headers })).ok()).toBe(
      true,
    );
    await page.evaluate((token) => localStorage.setItem('token', token), subscriber.token);
    await page.goto(chapterPath);
    await expect(section.getByText(/Your Unlimited plan includes this chapter/)).toBeVisible();
    await section.getByRole('button', { name: 'Add to my materials' }).click();
    await expect(section.getByText('Added 4 materials to Your Materials.')).toBeVisible();
    await snap(page, 'billing-chapter-pack-subscriber');
  });

  test('a failed renewal keeps the plan and asks for a new card', async ({ page, request }) => {
    const account = await createAccount(request);
    const headers = { authorization: `Bearer ${account.token}` };
    const start = await request.post('/api/v1/payment/create-checkout-session', {
      headers,
      data: {},
    });
    const { id } = (await start.json()) as { id: string };
    await request.post(`/api/v1/payment/local/checkout/${id}/pay`, { headers });
    const failed = await request.post('/api/v1/payment/local/portal/fail-payment', { headers });
    expect(((await failed.json()) as { data: { status: string } }).data.status).toBe('past_due');

    await signIn(page, account);
    await page.goto('/dashboard');
    await expect(page.getByRole('alert')).toContainText('Your last payment did not go through.');
    await expect(
      page.getByRole('alert').getByRole('button', { name: 'Manage Subscription' }),
    ).toBeVisible();
    await expectAccessible(page, 'dashboard with a failed renewal');
    await page.goto('/account?tab=subscription');
    await expect(
      page.getByRole('tabpanel').getByText('Payment failed', { exact: true }),
    ).toBeVisible();
    await page.goto('/material-generator');
    await expect(page.getByRole('button', { name: 'Generate Material' })).toBeEnabled();
  });

  test('guests see the plans and are asked to log in; phones get one column', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/subscription');
    await expect(page.getByRole('link', { name: 'Log in to subscribe' })).toHaveAttribute(
      'href',
      '/login?redirectTo=%2Fsubscription',
    );
    await expect(page.getByRole('link', { name: 'Create a free account' })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'subscription for guests');
    await snap(page, 'billing-subscription-phone');
  });
});
