import { createAccount, signIn } from './support';
import { expect, expectAccessible, snap, test } from './fixtures';

test.describe('AI Teaching Assistant', () => {
  test('dashboard → assistant → grounded discussion questions → the paragraph → a quiz', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { firstName: 'Grace' });
    await signIn(page, account);
    await page.goto('/dashboard');
    const [chat] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Open the AI Teaching Assistant' }).click(),
    ]);
    await chat.waitForLoadState();
    await expect(chat.getByRole('heading', { name: 'Hello Grace!' })).toBeVisible();
    // The token is exchanged and taken out of the address bar.
    expect(new URL(chat.url()).pathname).toBe('/assistant');
    expect(new URL(chat.url()).search).toBe('');
    await expectAccessible(chat, 'assistant (empty)');

    const composer = chat.getByLabel('Message the assistant');
    await composer.fill('Give me three discussion questions about Letter 1 of Frankenstein');
    await composer.press('Enter');
    const answer = chat.locator('.chat-message-assistant').last();
    await expect(answer.getByText(/three discussion questions about/)).toBeVisible();
    await expect(answer.locator('ol > li').first()).toBeVisible();
    await expect(chat.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 });
    await expect(chat.getByText('About:').locator('..')).toContainText('Letter 1');
    // The answer quotes Letter 1 and links each passage to its paragraph.
    const sources = answer.getByRole('region', { name: 'Sources' });
    const firstSource = sources.getByRole('link').first();
    await expect(firstSource).toHaveText(/Letter 1, Frankenstein.*paragraph \d+/);
    const href = (await firstSource.getAttribute('href'))!;
    expect(href).toMatch(/^\/book\/frankenstein-or-the-modern-prometheus\/letter-1#p-\d+$/);
    const quote = (await sources.locator('blockquote').first().textContent())!.trim();
    await expect(answer.locator('.chat-quote-warning')).toHaveCount(0);
    await snap(chat, 'assistant-answer');
    await expectAccessible(chat, 'assistant (answer)');

    // The link opens the chapter at the quoted paragraph.
    const [chapter] = await Promise.all([chat.waitForEvent('popup'), firstSource.click()]);
    await chapter.waitForLoadState();
    const anchor = href.split('#')[1]!;
    const paragraph = chapter.locator(`[id="${anchor}"]`);
    await expect(paragraph).toBeInViewport();
    const words = quote.split(/\s+/).slice(0, 6).join(' ');
    await expect(paragraph).toContainText(words.replace(/[“”]/g, ''));
    await snap(chapter, 'assistant-linked-paragraph');
    await chapter.close();

    // "Make a quiz from this" hands the chapter to the generator and links the material.
    await answer.getByRole('button', { name: 'Make a quiz from this' }).click();
    const made = answer.getByRole('link', { name: /Open “Quiz: Letter 1, Frankenstein”/ });
    await expect(made).toBeVisible({ timeout: 60_000 });
    const materials = await request.get('/api/v1/materials/getusersmaterials', {
      headers: { authorization: `Bearer ${account.token}` },
    });
    const list = (await materials.json()) as {
      generatedMaterials: { data: Array<{ name: string; type: string; status: string }> };
    };
    expect(list.generatedMaterials.data).toEqual([
      expect.objectContaining({
        name: 'Quiz: Letter 1, Frankenstein',
        type: 'Quiz',
        status: 'finished',
      }),
    ]);
  });

  test('without a token, or with a used one, the page says to open it from the dashboard', async ({
    page,
    request,
  }) => {
    await page.goto('/assistant');
    await expect(
      page.getByRole('heading', { name: 'Open the assistant from your dashboard' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
    await expectAccessible(page, 'assistant (no session)');

    const account = await createAccount(request);
    const token = await request.get('/api/v1/chat/getnewchatauthtoken', {
      headers: { authorization: `Bearer ${account.token}` },
    });
    const { chatAuthToken } = (await token.json()) as { chatAuthToken: string };
    await request.post('/api/v1/assistant/session', { data: { token: chatAuthToken } });
    await page.goto(`/assistant?a=${chatAuthToken}`);
    await expect(page.getByText(/already used/)).toBeVisible();
    expect(new URL(page.url()).search).toBe('');
  });

  test('conversations, the About picker (catalogue and pasted text), rename and delete, on a dark phone', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await signIn(page, account);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript(() => window.localStorage.setItem('theme', 'dark-mode'));
    await page.goto('/dashboard');
    // On a phone the assistant opens in the same tab.
    await page.getByRole('button', { name: 'Open the AI Teaching Assistant' }).click();
    await page.waitForURL('**/assistant');
    const composer = page.getByLabel('Message the assistant');
    await composer.fill('Summarise Letter 2 of Frankenstein');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(
      page.locator('.chat-message-assistant').getByText(/own, from beginning to end/),
    ).toBeVisible();
    await snap(page, 'assistant-phone-dark');
    await expectAccessible(page, 'assistant (phone, dark)');

    // About: a chapter found through the catalogue search, then a pasted text.
    await page.getByRole('button', { name: 'Change' }).click();
    const picker = page.getByRole('form', { name: 'What the conversation is about' });
    await picker.getByLabel('a chapter').check();
    await picker.getByLabel('Search the catalogue').fill('Frankenstein');
    await picker.getByRole('button', { name: 'Search' }).click();
    await picker
      .getByRole('button', { name: /Frankenstein/ })
      .first()
      .click();
    await picker.getByLabel('Chapter', { exact: true }).selectOption({ label: 'Letter 3' });
    await picker.getByRole('button', { name: 'Use this' }).click();
    await expect(page.getByText('About:').locator('..')).toContainText('Letter 3');
    await page.getByRole('button', { name: 'Change' }).click();
    await picker.getByLabel('pasted text').check();
    await picker.getByLabel('Name (optional)').fill('Storm handout');
    await picker
      .getByLabel('Text', { exact: true })
      .fill(
        'The storm broke over the harbour at dusk. Fishermen hauled their boats onto the shingle while the wind tore at the nets. Old Martha watched from the lighthouse, counting the lanterns as they came home one by one. When the last lantern reached the quay she finally climbed down the spiral stairs and lit the kitchen fire. Her grandson arrived soaked and laughing, carrying a basket of silver mackerel that glittered in the firelight.',
      );
    await picker.getByRole('button', { name: 'Use this' }).click();
    await expect(page.getByText('About:').locator('..')).toContainText('Storm handout');
    await page.getByRole('button', { name: 'Vocabulary list' }).click();
    await expect(
      page
        .locator('.chat-message-assistant')
        .last()
        .getByText(/A vocabulary list for “Storm handout”/),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Conversations' }).click();
    const list = page.getByRole('complementary', { name: 'Conversations' });
    await list.getByRole('button', { name: /^Rename/ }).click();
    await list.getByLabel('New name').fill('Letter 2 summary');
    await list.getByRole('button', { name: 'Save' }).click();
    await expect(list.getByText('Letter 2 summary')).toBeVisible();
    await list.getByRole('button', { name: /^Delete/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(list.getByText('No conversations yet')).toBeVisible();
  });
});
