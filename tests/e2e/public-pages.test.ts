import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway } from '../support/gateway';
import { browserSuite } from './support/browser';

const open = browserSuite(() => startTestGateway());

/**
 * The app's code held back until `release`, as on a slow line: until then the page is the one the build rendered
 * (admin/vite.config.mts, `prerenderPublicPages`).
 */
async function holdTheApp(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(/\/assets\/admin-[\w-]+\.js$/, async (route) => {
    asked = true;
    await released;
    await route.continue();
  });
  return { release, asked: () => asked };
}

/** The scripts the page has fetched so far. */
const scripts = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((pathname) => pathname.endsWith('.js')),
  );

const focusedField = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('name'));
const background = (page: Page) => page.locator('main').evaluate((main) => getComputedStyle(main).backgroundColor);

describe('the sign-in pages the build renders', () => {
  it("shows /login with none of the app's code, and signs in with what was typed and sent before the app came", async () => {
    const page = await open();
    const app = await holdTheApp(page);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    await expect.poll(() => focusedField(page)).toBe('username');
    expect(await scripts(page)).toEqual([expect.stringMatching(/^\/assets\/prerendered-[\w-]+\.js$/)]);
    expect(app.asked()).toBe(false);

    await page.keyboard.type(SUPERUSER.email);
    await expect.poll(app.asked).toBe(true);
    // The label moves up out of the way of what is typed, as the app's does.
    expect(await page.locator('#prerendered label', { hasText: 'Email' }).getAttribute('data-shrink')).toBe('true');
    await page.keyboard.press('Tab');
    await page.keyboard.type(SUPERUSER.password);
    await page.keyboard.press('Enter');
    // Still the build's page, the form held for the app.
    expect(await page.locator('#prerendered[data-submitted] form').count()).toBe(1);

    app.release();
    await page.getByText('Bem-vindo de volta, bom ver você de novo!').waitFor();
    expect(await page.locator('#prerendered').count()).toBe(0);
  });

  it('hands the field being typed in over to the app, focus and all', async () => {
    const page = await open();
    const app = await holdTheApp(page);
    await page.goto('/login');
    await page.getByLabel('Email').fill(SUPERUSER.email);
    await page.getByLabel('Password', { exact: true }).click();
    await page.keyboard.type(SUPERUSER.password.slice(0, 4));
    app.release();
    await page.locator('#prerendered').waitFor({ state: 'detached' });
    await page.keyboard.type(SUPERUSER.password.slice(4));
    await expect.poll(() => focusedField(page)).toBe('password');
    expect(await page.getByLabel('Email').inputValue()).toBe(SUPERUSER.email);
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe(SUPERUSER.password);
    await page.getByRole('button', { name: 'Logar' }).click();
    await page.getByText('Bem-vindo de volta, bom ver você de novo!').waitFor();
  });

  it("loads the app on a click with no pointer before it, as a screen reader's, and the app clicks it again", async () => {
    const page = await open();
    const app = await holdTheApp(page);
    await page.goto('/login');
    await page.getByLabel('Password', { exact: true }).fill('maria-password');
    await page.getByRole('button', { name: 'Show password' }).dispatchEvent('click');
    await expect.poll(app.asked).toBe(true);
    app.release();
    await page.locator('#prerendered').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('maria-password');
  });

  it('draws the appearance chosen, the same as the app draws, and its links are plain links', async () => {
    const page = await open();
    await page.goto('/recover-password');
    const light = await background(page);
    await page.evaluate(() => localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify('dark')));
    const app = await holdTheApp(page);
    await page.goto('/login');
    const dark = await background(page);
    expect(dark).not.toBe(light);

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/recover-password');
    await page.getByRole('heading', { name: 'Password Recovery' }).waitFor();
    expect(await page.locator('#prerendered').count()).toBe(1);
    expect(await background(page)).toBe(dark);

    app.release();
    await page.getByLabel('Email').click();
    await page.locator('#prerendered').waitFor({ state: 'detached' });
    expect(await background(page)).toBe(dark);
  });

  it('answers the page compressed, and a signed-in visitor with the app, which sends them on', async () => {
    const page = await open();
    const answer = await page.request.get('/login', { headers: { 'Accept-Encoding': 'br' } });
    expect(answer.headers()['content-encoding']).toBe('br');
    expect(await answer.text()).toContain('id="prerendered-dark"');

    await page.goto('/login');
    const token = await page.evaluate(
      async ([username, password]) => {
        const body = new URLSearchParams({ username: username!, password: password! });
        const answer = await fetch('/api/v1/login/access-token', { method: 'POST', body });
        return ((await answer.json()) as { access_token: string }).access_token;
      },
      [SUPERUSER.email, SUPERUSER.password],
    );
    await page.evaluate((value) => localStorage.setItem('access_token', value), token);
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('Bem-vindo de volta, bom ver você de novo!').waitFor();
  });
});
