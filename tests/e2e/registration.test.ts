import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { expectToast, launchBrowser, login, openPage } from './support/browser';

/** Signing up on a server that waits for a superuser's approval, and on one that takes no signups. */
let approval: TestGateway;
let closed: TestGateway;
let browser: Browser;

beforeAll(async () => {
  [approval, closed, browser] = await Promise.all([
    startTestGateway({ USERS_OPEN_REGISTRATION: 'approval' }),
    startTestGateway({ USERS_OPEN_REGISTRATION: 'closed' }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await approval?.close();
  await closed?.close();
});

describe('registration by approval', () => {
  it('tells the new user to wait, refuses their login until a superuser activates them in Users Management', async () => {
    const { page, context, errors } = await openPage(browser, approval.url);
    await page.goto('/signup');
    await page.getByText("New accounts wait for an administrator's approval.").waitFor();
    await page.getByLabel('Full Name').fill('Joana Lima');
    await page.getByLabel('Email').fill('joana@example.com');
    await page.getByLabel('Password', { exact: true }).fill('joana-password');
    await page.getByLabel('Confirm Password').fill('joana-password');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/login');
    await expectToast(
      page,
      'Account created.',
      'Your account has been created successfully. An administrator must activate it before you can log in.',
    );

    await page.getByLabel('Email').fill('joana@example.com');
    await page.getByLabel('Password', { exact: true }).fill('joana-password');
    await page.getByRole('button', { name: 'Logar' }).click();
    await page.getByText('Inactive user', { exact: true }).waitFor();

    await login(page, SUPERUSER.email, SUPERUSER.password);
    await page.goto('/admin');
    const row = page.getByRole('row', { name: /joana@example\.com/ });
    await row.getByText('Inactive').waitFor();
    await page.getByRole('button', { name: 'Actions: joana@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Edit User' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByLabel('Is active?').check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'User updated successfully.');
    await row.getByText('Active', { exact: true }).waitFor();

    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await login(page, 'joana@example.com', 'joana-password');
    await page.getByRole('heading', { name: 'Olá, Joana Lima' }).waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe('closed registration', () => {
  it('says on the signup page that signing up is not possible here', async () => {
    const { page, context, errors } = await openPage(browser, closed.url);
    await page.goto('/signup');
    await page.getByText('Open user registration is forbidden on this server.').waitFor();
    expect(await page.getByRole('button', { name: 'Sign Up' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Log In' }).click();
    await page.waitForURL('**/login');
    await context.close();
    expect(errors).toEqual([]);
  });
});
