import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { SUPERUSER, type TestGateway } from '../../support/gateway';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless: no browser is downloaded. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Console errors a test brings about on purpose (a request it makes fail), by page. */
const expectedErrors = new WeakMap<Page, RegExp[]>();

/** Lets console errors matching `pattern` through on this page: the browser logs each request a test makes fail. */
export function expectConsoleErrors(page: Page, pattern: RegExp) {
  expectedErrors.set(page, [...(expectedErrors.get(page) ?? []), pattern]);
}

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen on the page. */
  errors: string[];
}

/** A fresh browser profile (its own localStorage) on the gateway's address. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<TrackedPage> {
  const context = await browser.newContext({ baseURL, viewport: options.viewport ?? { width: 1280, height: 800 } });
  context.setDefaultTimeout(30_000); // generous: CI machines are shared
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // A refused request (a wrong password, a 4xx the screen handles) is logged by the browser itself.
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
    if (expectedErrors.get(page)?.some((pattern) => pattern.test(text))) return;
    errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, context, errors };
}

/**
 * Starts the gateway (with `start`) and a browser for the suite, and closes both (then runs `stop`) at its end.
 * Answers `open`, which opens a fresh page on the gateway; after each test the page is closed and its console
 * errors must be none.
 */
export function browserSuite(start: () => Promise<TestGateway>, stop?: () => Promise<void>) {
  let gateway: TestGateway | undefined;
  let browser: Browser | undefined;
  let tracked: TrackedPage | undefined;

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([start(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await stop?.();
  });
  afterEach(async () => {
    const errors = tracked?.errors ?? [];
    await tracked?.context.close();
    tracked = undefined;
    expect(errors, 'console errors').toEqual([]);
  });

  return async function open(viewport?: { width: number; height: number }): Promise<Page> {
    tracked = await openPage(browser!, gateway!.url, { viewport });
    return tracked.page;
  };
}

/** Signs in through the login screen and waits for the dashboard. */
export async function login(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Logar' }).click();
  await page.getByText('Bem-vindo de volta, bom ver você de novo!').waitFor();
}

/** Waits for a toast with this title and description, checks it sits at the bottom right, and closes it. */
export async function expectToast(page: Page, title: string, description?: string) {
  const toast = page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: title });
  await toast.first().waitFor();
  if (description) await toast.first().getByText(description).waitFor();
  const box = await toast.first().boundingBox();
  const viewport = page.viewportSize();
  if (box && viewport) {
    if (box.x + box.width < viewport.width * 0.6 || box.y < viewport.height * 0.5) {
      throw new Error(`the toast is not at the bottom right: ${JSON.stringify(box)}`);
    }
  }
  // Closed with its button, named in the screen's language.
  await toast
    .first()
    .getByRole('button', { name: /^(Close|Fechar)$/ })
    .click();
  await toast.first().waitFor({ state: 'detached' });
}

/** The two screens every changed screen is looked at on: a desktop and a phone. */
export const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };

/** A page of `open` at `size`, in the `theme` appearance (unless the page chose another since), signed in as the superuser. */
export async function openSignedIn(
  open: (viewport?: { width: number; height: number }) => Promise<Page>,
  theme: 'light' | 'dark',
  size: keyof typeof SIZES,
): Promise<Page> {
  const page = await open(SIZES[size]);
  await page.context().addInitScript((chosen) => {
    if (!localStorage.getItem('RaStoreSistemaIntegracao.theme'))
      localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(chosen));
  }, theme);
  await login(page, SUPERUSER.email, SUPERUSER.password);
  return page;
}

/** Whether the page scrolls sideways: a phone user must never have to. */
export const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth > window.innerWidth);
