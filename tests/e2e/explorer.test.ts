import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { launchBrowser, openPage } from './support/browser';

/**
 * Presses the explorer's run button until its response pane shows an answer: a click made while GraphiQL is still
 * loading the schema does nothing, and then the pane stays empty.
 */
async function runQuery(page: Page): Promise<string> {
  const response = page.locator('.graphiql-response');
  const run = page.getByRole('button', { name: /Execute query/i });
  await run.waitFor();
  let text = '';
  for (let attempt = 0; attempt < 20 && !text.includes('"data"'); attempt++) {
    await run.click();
    await page.waitForTimeout(500 + attempt * 250);
    text = await response.innerText();
  }
  return text;
}

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
    expect(await runQuery(page)).toContain('https://explorer.example');
    await page.getByText('Headers', { exact: true }).click();
    expect(await page.locator('.graphiql-editor-tool').innerText()).toContain('Bearer');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the API’s refusal when no token is sent', async () => {
    const { page, context } = await openPage(browser, t.url);
    await page.goto('/graphql');
    expect(await runQuery(page)).toContain('Not authenticated');
    await context.close();
  });
});
