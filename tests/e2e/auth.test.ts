import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, expectToast, login } from './support/browser';

let t: TestGateway;
const open = browserSuite(async () => (t = await startTestGateway()));

describe('signing up and in', () => {
  it('signs up, logs in and greets the user on the dashboard', async () => {
    const page = await open();
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Full Name is required', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Email is required', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Password is required', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Password confirmation is required', { exact: true }).isVisible()).resolves.toBe(true);

    await page.getByLabel('Full Name').fill('Maria Souza');
    await page.getByLabel('Email').fill('maria@example.com');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password').fill('different');
    await page.getByLabel('Full Name').focus();
    await page.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    await page.getByText('The passwords do not match', { exact: true }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('maria-password');
    await page.getByLabel('Confirm Password').fill('maria-password');
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await page.waitForURL('**/login');
    await page.getByText('Account created.').waitFor();
    await page.getByText('Your account has been created successfully.').waitFor();

    await page.getByRole('button', { name: 'Logar' }).click();
    await page.getByText('Email é obrigatório', { exact: true }).waitFor();
    await page.getByText('Password is required', { exact: true }).waitFor();
    await page.getByLabel('Email').fill('maria@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Logar' }).click();
    await page.getByText('Incorrect email or password', { exact: true }).waitFor();

    const toggle = page.getByRole('button', { name: 'Show password' });
    await toggle.click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');

    await page.getByLabel('Password', { exact: true }).fill('maria-password');
    await page.getByRole('button', { name: 'Logar' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Olá, Maria Souza' }).waitFor();
    await page.getByText('Bem-vindo de volta, bom ver você de novo!').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
    await page.getByText('Logado como: maria@example.com').waitFor();

    // Signed in, the sign-in pages lead to the dashboard.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/signup');
    await page.waitForURL((url) => url.pathname === '/');

    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await page.goto('/clientes');
    await page.waitForURL('**/login');
  });

  it('signs out when the stored token is no longer valid', async () => {
    const page = await open();
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('access_token', 'not-a-valid-token'));
    await page.goto('/clientes');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });

  it('shows the 404 page for an unknown path, with a way back', async () => {
    const page = await open();
    await login(page, SUPERUSER.email, SUPERUSER.password);
    await page.goto('/no-such-page');
    await page.getByText('Oops!').waitFor();
    await page.getByText('Page not found.').waitFor();
    await page.getByRole('link', { name: 'Go back' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('Bem-vindo de volta, bom ver você de novo!').waitFor();
  });

  it('refuses /admin to an ordinary user and gives no sidebar entry to it', async () => {
    const user = await t.createUser('ordinary@example.com', 'ordinary-password');
    const page = await open();
    await login(page, user.email, user.password);
    await expect(page.getByRole('menuitem', { name: 'Admin' }).count()).resolves.toBe(0);
    await page.goto('/admin');
    await page.getByText("The user doesn't have enough privileges").waitFor();
    await expect(page.getByRole('button', { name: 'Add User' }).count()).resolves.toBe(0);
    // Still signed in: a refusal is not a session error.
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
  });

  it('works from the keyboard alone', async () => {
    const page = await open();
    await page.goto('/login');
    const email = page.getByLabel('Email');
    await email.waitFor();
    await expect.poll(() => email.evaluate((input) => input === document.activeElement)).toBe(true); // focused on arrival
    await page.keyboard.type(SUPERUSER.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(SUPERUSER.password);
    await page.keyboard.press('Enter');
    await page.getByText('Bem-vindo de volta, bom ver você de novo!').waitFor();

    await page.goto('/items');
    await page.getByRole('heading', { name: 'Items Management' }).waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    for (let i = 0; i < 40 && (await focused()) !== 'Adicionar Item'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Adicionar Item' });
    const title = dialog.getByLabel('Title');
    await expect.poll(() => title.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type('Item do teclado');
    await page.keyboard.press('Enter');
    await expectToast(page, 'Success!', 'Item created successfully.');
    await dialog.waitFor({ state: 'detached' });

    const actions = page.getByRole('button', { name: 'Actions: Item do teclado' });
    await actions.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Editar Item' }).waitFor();
    await page.keyboard.press('Enter');
    const editTitle = page.getByRole('dialog', { name: 'Editar Item' }).getByLabel('Title');
    await expect.poll(() => editTitle.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Editar Item' }).waitFor({ state: 'detached' });
  });
});
