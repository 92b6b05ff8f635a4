import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, expectAccessible, snap, test } from './fixtures';
import { countOutbox, linkFromOutbox } from './mail';
import { createAccount } from './support';

/** A screenshot from the top of the page (the header is not yet in its fixed state). */
async function snapTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => !document.querySelector('.site-header.is-fixed'));
  await snap(page, name);
}

function newTeacher() {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  return {
    firstName: 'Maria',
    lastName: 'Montessori',
    username: `maria_${tag}`.slice(0, 30),
    email: `maria_${tag}@example.org`,
    password: 'first password 2024',
  };
}

async function openUserMenu(page: Page, firstName: string) {
  await page.getByRole('button', { name: `Welcome ${firstName}!` }).click();
}

test.describe('accounts', () => {
  test('a new teacher registers, edits the profile, changes the password, logs out and resets it by email', async ({
    page,
  }) => {
    test.setTimeout(180_000); // the whole journey, on a shared 2-core machine
    const teacher = newTeacher();

    // Register
    await page.goto('/register');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Create your account' }),
    ).toBeVisible();
    await page.getByLabel('First name').fill(teacher.firstName);
    await page.getByLabel('Last name').fill(teacher.lastName);
    await page.getByLabel('Username').fill(teacher.username);
    await page.getByLabel('Email').fill(teacher.email);
    await page.getByLabel('Password', { exact: true }).fill(teacher.password);
    await page.getByLabel('Confirm password').fill(teacher.password);
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Terms of Service' }),
    ).toBeVisible();
    await expectAccessible(page, 'register');
    await page.getByRole('button', { name: 'Create Account' }).click();

    // → /login, email filled in
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Account created')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(teacher.email);
    await page.getByLabel('Password', { exact: true }).fill(teacher.password);
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password');
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Log in' }).click();

    // Full-page redirect to the dashboard, logged in.
    await expect(page).toHaveURL(/\/dashboard$/);
    await openUserMenu(page, 'Maria');
    await page.getByRole('link', { name: 'Account', exact: true }).click();

    // Account: Edit Info
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('tab', { name: 'Edit Info' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByLabel('Username')).toHaveValue(teacher.username);
    await expect(page.getByLabel('Username')).toHaveAttribute('readonly', '');
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
    await page.getByLabel('Bio').fill('I teach reading to 4th graders in Rome.');
    await page.getByLabel('Website').fill('montessori.example.org');
    await page.getByLabel('Instagram').fill('https://instagram.com/maria');
    const photo = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 15, g: 118, b: 110 } },
    })
      .jpeg()
      .toBuffer();
    await page.getByLabel('Choose a picture').setInputFiles({
      name: 'me.jpg',
      mimeType: 'image/jpeg',
      buffer: photo,
    });
    await expectAccessible(page, 'account edit info');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    await expect(page.getByLabel('Website')).toHaveValue('https://montessori.example.org');
    const headerAvatar = page.locator('.user-trigger img');
    await expect(headerAvatar).toHaveAttribute('src', /^\/uploads\/avatars\/.+\.webp$/);
    const avatarUrl = await headerAvatar.getAttribute('src');
    const avatarResponse = await page.request.get(avatarUrl!);
    expect(avatarResponse.headers()['content-type']).toBe('image/webp');
    await snapTop(page, 'account-desktop-light');

    // A bad link gets the server's reason, and nothing is lost.
    await page.getByLabel('Twitter').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expect(page.getByText('An error has occured, try again later')).toBeVisible();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Twitter URL must be a web address' }),
    ).toBeVisible();
    await page.getByLabel('Twitter').fill('');

    // Own public profile (server-rendered)
    await page.getByRole('link', { name: 'View public profile' }).click();
    await expect(page).toHaveURL(new RegExp(`/profile/${teacher.username}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Maria Montessori' })).toBeVisible();
    await expect(page.getByText(`@${teacher.username}`)).toBeVisible();
    await expect(page.getByText('I teach reading to 4th graders in Rome.')).toBeVisible();
    const today = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date());
    await expect(page.getByText(`Joined ${today}`)).toBeVisible();
    await expect(page.getByRole('link', { name: /Website/ })).toHaveAttribute(
      'href',
      'https://montessori.example.org',
    );
    await expect(page.getByRole('link', { name: /Instagram/ })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit profile' })).toBeVisible();
    expect(await page.content()).not.toContain(teacher.email);
    await expectAccessible(page, 'public profile');
    await snapTop(page, 'profile-desktop-light');
    const ssr = await page.request.get(`/profile/${teacher.username}`);
    expect(ssr.status()).toBe(200);
    const html = await ssr.text();
    expect(html).toContain('I teach reading to 4th graders in Rome.');
    expect(html).not.toContain(teacher.email);

    // Password tab
    await page.goto('/account?tab=password');
    await expect(page.getByRole('tab', { name: 'Password' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('second password 2024');
    await page.getByLabel('Confirm new password').fill('second password 2024');
    await page.getByRole('button', { name: 'Change Password' }).click();
    const wrong = page.getByText('Your current password is not correct.');
    await expect(wrong).toBeVisible();
    await expect(wrong).toHaveClass(/form-error/);
    await expect(page.getByLabel('Current password')).toHaveValue('');
    await page.getByLabel('Show passwords').check();
    await expect(page.getByLabel('Current password')).toHaveAttribute('type', 'text');
    await page.getByLabel('Current password').fill(teacher.password);
    await page.getByLabel('New password', { exact: true }).fill('second password 2024');
    await page.getByLabel('Confirm new password').fill('second password 2024');
    await page.getByRole('button', { name: 'Change Password' }).click();
    const changed = page.getByText('Your password has been changed.');
    await expect(changed).toBeVisible();
    await expect(changed).toHaveClass(/form-success/);
    for (const label of ['Current password', 'Confirm new password']) {
      await expect(page.getByLabel(label)).toHaveValue('');
    }
    await expectAccessible(page, 'account password');
    // This device keeps its session (new token); a reload still shows the account.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    const tokenBeforeLogout = await page.evaluate(() => localStorage.getItem('token'));

    // Log out: the session ends on the server too.
    await openUserMenu(page, 'Maria');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }),
    ).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const me = await page.request.get('/api/v1/users/me', {
      headers: { authorization: `Bearer ${tokenBeforeLogout}` },
    });
    expect(me.status()).toBe(401);

    // Forgot password → the emailed link → reset
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await expect(page).toHaveURL(/\/forgot$/);
    const before = countOutbox(teacher.email);
    await page.getByLabel('Email').fill(teacher.email);
    await expectAccessible(page, 'forgot');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Check your inbox.')).toBeVisible();
    await snapTop(page, 'forgot-sent');
    const link = await linkFromOutbox(
      teacher.email,
      /http:\/\/localhost:\d+\/reset\?token=[\w%-]+/,
      before,
    );
    await page.goto(link);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Choose a new password' }),
    ).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('third password 2024');
    await page.getByLabel('Confirm new password').fill('third password 2024!');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('The two passwords do not match.')).toBeVisible();
    await page.getByLabel('Confirm new password').fill('third password 2024');
    await expectAccessible(page, 'reset');
    await snapTop(page, 'reset-form');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(
      page.getByText('Your password has been reset. You can now log in with your new password.'),
    ).toBeVisible();

    // The link works once.
    const again = await page.request.post('/api/v1/users/resetpassword/', {
      data: {
        token: new URL(link).searchParams.get('token'),
        password: 'fourth password',
        passwordConfirmation: 'fourth password',
      },
    });
    expect(again.status()).toBe(400);

    // Log in with the new password.
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Email').fill(teacher.email);
    await page.getByLabel('Password', { exact: true }).fill('second password 2024');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Incorrect email or password.')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill('third password 2024');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('button', { name: 'Welcome Maria!' })).toBeVisible();
  });

  test('a guarded route sends a visitor to /login and back after logging in', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { firstName: 'Rosa' });
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
    await expect(page.getByText('Please log in to continue.')).toBeVisible();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    // Logged in already: /login goes on to the dashboard.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    // An outside redirectTo is ignored.
    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto('/login?redirectTo=//evil.example.org');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/localhost:\d+\/dashboard$/);
  });

  test('the login screen shows a failed login and the rate limit in red', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }),
    ).toBeVisible();
    // 10 tries per email address in 15 minutes (the sign-up helper used one).
    for (let i = 0; i < 9; i++) {
      await request.post('/api/v1/users/login', {
        data: { email: account.email, password: 'nope' },
      });
    }
    await page.getByRole('button', { name: 'Log in' }).click();
    const limited = page.getByRole('alert').filter({
      hasText: 'Too many attempts for this email address. Please wait 15 minutes and try again.',
    });
    await expect(limited).toBeVisible();
    await expect(limited).toHaveCSS('color', 'rgb(185, 28, 28)');
    await snapTop(page, 'login-rate-limited');
  });

  test('register shows the server error in a toast', async ({ page, request }) => {
    const existing = await createAccount(request);
    await page.goto('/register');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('L');
    await page.getByLabel('Username').fill(`x${Date.now().toString(36)}`);
    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Password', { exact: true }).fill('some password');
    await page.getByLabel('Confirm password').fill('some password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'An account already uses this email address.' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
  });

  test('an unknown username is a 404 page', async ({ page }) => {
    const response = await page.goto('/profile/nobody_by_this_name');
    expect(response?.status()).toBe(404);
    await expect(
      page.getByRole('heading', { name: "We couldn't find that teacher" }),
    ).toBeVisible();
    await expectAccessible(page, 'profile 404');
  });

  test('a reset link without a token, or a used one, says what to do', async ({ page }) => {
    await page.goto('/reset');
    await expect(page.getByText('This reset link is incomplete.')).toBeVisible();
    await page.goto('/reset?token=made-up-token');
    await page.getByLabel('New password', { exact: true }).fill('a new password');
    await page.getByLabel('Confirm new password').fill('a new password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText(/has expired or has already been used/)).toBeVisible();
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await expect(page).toHaveURL(/\/forgot$/);
  });

  test('newsletter: subscribe in the footer, then unsubscribe with the emailed link', async ({
    page,
  }) => {
    const email = `news_${Date.now().toString(36)}@example.org`;
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await footer.getByLabel('Newsletter').fill(email);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByText('Thanks for subscribing!')).toBeVisible({ timeout: 5000 });
    await expect(footer.getByLabel('Newsletter')).toHaveValue('');
    const link = await linkFromOutbox(
      email,
      /http:\/\/localhost:\d+\/newsletter\/unsubscribe\?token=[\w.%-]+/,
    );
    await page.goto(link);
    await expect(
      page.getByRole('heading', { name: 'Unsubscribe from the newsletter?' }),
    ).toBeVisible();
    await expect(page.getByText(/^n\*+@example\.org$/)).toBeVisible();
    await expectAccessible(page, 'unsubscribe');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Already unsubscribed' })).toBeVisible();
    await page.goto('/newsletter/unsubscribe?token=forged.token');
    await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  });

  test('screens in dark mode and on a 375 px phone', async ({ page, request }) => {
    const account = await createAccount(request, { firstName: 'Lena' });
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('theme', 'dark-mode'));
    for (const [path, name] of [
      ['/login', 'login'],
      ['/register', 'register'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page, `${name} dark`);
      await snapTop(page, `${name}-desktop-dark`);
    }
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/account');
    await expect(page.getByRole('tab', { name: 'Edit Info' })).toBeVisible();
    await expectAccessible(page, 'account dark');
    await snapTop(page, 'account-desktop-dark');

    await page.setViewportSize({ width: 375, height: 800 });
    await page.evaluate(() => localStorage.setItem('theme', 'default'));
    for (const [path, name] of [
      ['/account', 'account'],
      ['/account?tab=password', 'account-password'],
      [`/profile/${account.username}`, 'profile'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, path).toBeLessThanOrEqual(375);
      await snapTop(page, `${name}-phone`);
    }
    await page.evaluate(() => localStorage.removeItem('token'));
    for (const [path, name] of [
      ['/login', 'login'],
      ['/register', 'register'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        375,
      );
      await expectAccessible(page, `${name} phone`);
      await snapTop(page, `${name}-phone`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/login');
    await snapTop(page, 'login-desktop-light');
    await page.goto('/register');
    await snapTop(page, 'register-desktop-light');
  });
});
