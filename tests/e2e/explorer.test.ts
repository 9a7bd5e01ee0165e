import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { launchBrowser, openPage } from './support/browser';

let t: TestGateway;
let browser: Browser;
beforeAll(async () => {
  t = await startTestGateway();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('GraphQL explorer', () => {
  it('runs queries from our own assets, with the signed-in user’s bearer token', async () => {
    const token = await t.superuserToken();
    await t.request('POST', '/api/v1/clients/', { token, json: { url: 'https://explorer.example' } });
    const { page, errors, context } = await openPage(browser, t.url);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(t.url)) outside.push(request.url());
    });
    await page.goto('/');
    await page.evaluate((value) => window.localStorage.setItem('access_token', value), token);
    await page.goto('/graphql');
    await page.getByRole('button', { name: /Execute query/i }).click();
    await expect
      .poll(() => page.locator('.graphiql-response').innerText(), { timeout: 15_000 })
      .toContain('https://explorer.example');
    await page.getByText('Headers', { exact: true }).click();
    expect(await page.locator('.graphiql-editor-tool').innerText()).toContain('Bearer');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the API’s refusal when no token is sent', async () => {
    const { page, context } = await openPage(browser, t.url);
    await page.goto('/graphql');
    await page.getByRole('button', { name: /Execute query/i }).click();
    await expect
      .poll(() => page.locator('.graphiql-response').innerText(), { timeout: 15_000 })
      .toContain('Not authenticated');
    await context.close();
  });
});
