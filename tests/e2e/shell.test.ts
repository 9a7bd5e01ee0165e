import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, expectToast, login } from './support/browser';

/** The frame of the admin: access, session, menu, dashboard, and the readability of its screens. */
let t: TestGateway;
const open = browserSuite(async () => (t = await startTestGateway()));

const PHONE = { width: 390, height: 844 };

interface Measured {
  text: string;
  element: string;
  color: string;
  background: string;
  ratio: number;
  large: boolean;
}

/**
 * The contrast ratio (WCAG 2) of every visible text on the page against what lies behind it: the element's
 * colour, faded by its own and its ancestors' opacity, over the first opaque background up its ancestors (with
 * the translucent ones between composited). Disabled controls are left out, as WCAG does.
 */
function measureContrast(): Measured[] {
  const parse = (value: string): number[] => {
    const rgb = value.match(/rgba?\(([^)]+)\)/);
    if (rgb) {
      const p = rgb[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    const srgb = value.match(/color\(srgb ([^)]+)\)/);
    if (srgb) {
      const p = srgb[1]
        .split(/[\s/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    return [0, 0, 0, 0];
  };
  const over = (top: number[], under: number[]) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const luminance = (c: number[]) => {
    const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const backgroundOf = (element: Element) => {
    const layers: number[][] = [];
    for (let e: Element | null = element; e; e = e.parentElement) {
      const color = parse(getComputedStyle(e).backgroundColor);
      if (color[3] > 0) layers.push(color);
      if (color[3] >= 1) break;
    }
    let result = [255, 255, 255];
    for (let i = layers.length - 1; i >= 0; i--) result = over(layers[i], result);
    return result;
  };
  const opacityOf = (element: Element) => {
    let o = 1;
    for (let e: Element | null = element; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };

  const measured: Measured[] = [];
  const seen = new Set<Element>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || seen.has(element) || !node.textContent?.trim()) continue;
    seen.add(element);
    if (element.closest('[aria-hidden="true"], .Mui-disabled, :disabled, [aria-disabled="true"], script, style'))
      continue;
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    const background = backgroundOf(element);
    const own = parse(style.color);
    const color = over([own[0], own[1], own[2], own[3] * opacityOf(element)], background);
    const [lighter, darker] = [luminance(color), luminance(background)].sort((a, b) => b - a);
    const size = parseFloat(style.fontSize);
    measured.push({
      text: node.textContent.trim().slice(0, 40),
      element: `${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]}`,
      color: style.color,
      background: `rgb(${background.map(Math.round).join(', ')})`,
      ratio: Math.round(((lighter + 0.05) / (darker + 0.05)) * 100) / 100,
      large: size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700),
    });
  }
  return measured;
}

/** Every text on the page reads at 4.5:1 at least (3:1 when large), and these texts are among them. */
async function expectReadable(page: Page, where: string, mustInclude: string[] = []) {
  await page.waitForTimeout(400); // transitions (a toast fading in, a label moving) end
  const measured = await page.evaluate(measureContrast);
  const failing = measured.filter((m) => m.ratio < (m.large ? 3 : 4.5));
  expect(failing, `texts below AA on ${where}`).toEqual([]);
  for (const text of mustInclude) {
    expect(
      measured.some((m) => m.text.startsWith(text)),
      `"${text}" measured on ${where}`,
    ).toBe(true);
  }
}

async function chooseTheme(page: Page, theme: 'light' | 'dark') {
  await page.goto('/login');
  await page.evaluate((value) => localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(value)), theme);
}

async function expectNoSideScroll(page: Page, where: string) {
  await page.waitForTimeout(300);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `page width at 390 on ${where}`).toBeLessThanOrEqual(390);
}

describe.each(['light', 'dark'] as const)('contrast in %s mode', (theme) => {
  it('the sign-in pages, their errors and toasts read at AA', async () => {
    const page = await open();
    await chooseTheme(page, theme);

    await page.goto('/login');
    await page.getByRole('button', { name: 'Logar' }).click();
    // The page drawn at build time tells the empty Email at once; the app, once up, sends the form and tells both.
    await page.getByText('Email é obrigatório').waitFor();
    await page.getByText('Password is required').waitFor();
    await expectReadable(page, 'login', [
      'Sistema de Integração',
      'Email é obrigatório',
      'Password is required',
      'Forgot password?',
      'Logar',
      'Sign Up',
    ]);
    await page.getByLabel('Email').fill(SUPERUSER.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Logar' }).click();
    await page.getByText('Incorrect email or password').waitFor();
    await page.getByLabel('Email').focus(); // a focused label takes the text shade of the main colour
    await expectReadable(page, 'login, refused', ['Incorrect email or password', 'Email']);

    await page.goto('/signup');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Full Name is required').waitFor();
    await expectReadable(page, 'signup', ['Full Name is required', 'Password confirmation is required', 'Log In']);

    await page.goto('/recover-password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Email is required').waitFor();
    await expectReadable(page, 'recover', ['Email is required', 'Continue', 'Log In']);
    await page.getByLabel('Email').fill(SUPERUSER.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Email sent.').waitFor();
    await expectReadable(page, 'recover, success toast', ['Email sent.', 'We sent an email']);

    await page.goto('/reset-password?token=aaaa.bbbb.cccc');
    await page.getByLabel('New Password').fill('a-new-password');
    await page.getByLabel('Confirm Password').fill('another-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('The passwords do not match').waitFor();
    await expectReadable(page, 'reset', ['The passwords do not match', 'Please enter your new password']);
    await page.getByLabel('Confirm Password').fill('a-new-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Error' }).waitFor();
    await expectReadable(page, 'reset, error toast', ['Error']);

    await page.goto('/reset-password');
    await page.getByText('This password reset link is invalid or has expired.').waitFor();
    await expectReadable(page, 'reset, invalid link', ['This password reset link', 'Request a new link']);

    await page.goto('/callback');
    await page.getByText('Autorização bem sucedida!').waitFor();
    await expectReadable(page, 'callback', ['Autorização bem sucedida!']);

    await page.goto('/no-such-page');
    await page.getByText('Oops!').waitFor();
    await expectReadable(page, '404', ['404', 'Oops!', 'Page not found.', 'Go back']);
  });

  it('the dashboard, the menu, the app bar and every settings tab read at AA', async () => {
    const user = await t.createUser(`contrast-${theme}@example.com`, 'contrast-password');
    const page = await open();
    await chooseTheme(page, theme);
    await login(page, user.email, user.password);
    await page.getByRole('link', { name: /^Clientes \d+$/ }).waitFor();
    await expectReadable(page, 'dashboard', [
      'Sistema de Integração',
      'Olá,',
      'Bem-vindo de volta',
      'Clientes',
      'Itens',
      'Dashboard',
      'Configurações',
      'Logout',
      'Logado como:',
    ]);
    await page.getByRole('button', { name: 'Test User' }).click();
    await page.getByRole('menuitem', { name: 'Meu perfil' }).waitFor();
    await expectReadable(page, 'user menu', ['Meu perfil']);
    await page.getByRole('menuitem', { name: 'Meu perfil' }).click();

    await page.getByRole('heading', { name: 'Configurações do usuário' }).waitFor();
    await expectReadable(page, 'Meu perfil', [
      'Configurações do usuário',
      'Meu perfil',
      'Senha',
      'Full name',
      'Editar',
    ]);
    await page.getByRole('button', { name: 'Editar' }).click();
    await page.getByLabel('Full name').fill('x'.repeat(31));
    await page.getByLabel('Email').focus();
    await page.getByText('Full name must be at most 30 characters').waitFor();
    await expectReadable(page, 'Meu perfil, editing', ['Full name must be at most 30 characters', 'Cancel']);

    await page.getByRole('tab', { name: 'Senha' }).click();
    await page.getByLabel('New Password').fill('another-password');
    await page.getByLabel('Confirm Password').fill('different-password');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('The passwords do not match').waitFor();
    await expectReadable(page, 'Senha', ['Alterar senha', 'Password is required', 'The passwords do not match']);
    await page.getByLabel('Current Password').fill('not-my-password');
    await page.getByLabel('New Password').fill('another-password');
    await page.getByLabel('Confirm Password').fill('another-password');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Incorrect password').waitFor();
    await expectReadable(page, 'Senha, error toast', ['Something went wrong.', 'Incorrect password']);
    await expectToast(page, 'Something went wrong.', 'Incorrect password');

    await page.getByRole('tab', { name: 'Aparência' }).click();
    await expectReadable(page, 'Aparência', ['Modo claro (padrão)', 'Modo escuro']);

    await page.getByRole('tab', { name: 'Danger zone' }).click();
    await expectReadable(page, 'Danger zone', ['Excluir permanentemente']);
    await page.getByRole('button', { name: 'Excluir conta' }).click();
    await page.getByRole('dialog').waitFor();
    await expectReadable(page, 'Danger zone, dialog', ['Confirmação necessária', 'Cancelar', 'Confirmar']);
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it("a superuser's dashboard and the phone drawer read at AA", async () => {
    const page = await open(PHONE);
    await chooseTheme(page, theme);
    await login(page, SUPERUSER.email, SUPERUSER.password);
    await page.getByRole('link', { name: /^Usuários \d+$/ }).waitFor();
    await expectReadable(page, 'dashboard at 390', ['Usuários', 'E-mails que falharam']);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).waitFor();
    await expectReadable(page, 'drawer', ['Dashboard', 'Clientes', 'Itens', 'Admin', 'Logado como:']);
  });
});

describe('phone width', () => {
  it('no screen of the frame scrolls sideways at 390 px', async () => {
    const user = await t.createUser('telefone@example.com', 'telefone-password');
    const page = await open(PHONE);
    for (const path of [
      '/login',
      '/signup',
      '/recover-password',
      '/reset-password?token=aaaa.bbbb.cccc',
      '/reset-password',
      '/callback',
      '/no-such-page',
    ]) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      await expectNoSideScroll(page, path);
    }
    await page.goto('/login');
    await page.getByRole('button', { name: 'Logar' }).click();
    await page.getByText('Email é obrigatório').waitFor();
    await expectNoSideScroll(page, 'login with its errors');

    await login(page, user.email, user.password);
    await page.getByRole('link', { name: /^Itens \d+$/ }).waitFor();
    await expectNoSideScroll(page, 'dashboard');
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await page.getByRole('menuitem', { name: 'Configurações' }).waitFor();
    await expectNoSideScroll(page, 'drawer');
    await page.getByRole('menuitem', { name: 'Configurações' }).click();
    await page.getByRole('heading', { name: 'Configurações do usuário' }).waitFor();
    await expectNoSideScroll(page, 'config');
    await page.getByRole('button', { name: 'Editar' }).click();
    await expectNoSideScroll(page, 'Meu perfil, editing');
    for (const tab of ['Senha', 'Aparência', 'Danger zone']) {
      await page.getByRole('tab', { name: tab }).click();
      await expectNoSideScroll(page, tab);
    }
    await page.getByRole('button', { name: 'Excluir conta' }).click();
    await page.getByRole('dialog').waitFor();
    await expectNoSideScroll(page, 'Danger zone, dialog');
  });
});

describe('menu and access', () => {
  it('lists Items in the sidebar and leaves Users Management to superusers', async () => {
    const page = await open();
    await login(page, SUPERUSER.email, SUPERUSER.password);
    for (const entry of ['Dashboard', 'Clientes', 'Itens', 'Configurações', 'Admin', 'Logout']) {
      await page.getByRole('menuitem', { name: entry, exact: true }).waitFor();
    }
    await page.getByRole('menuitem', { name: 'Itens' }).click();
    await page.waitForURL('**/items');
    await page.getByRole('heading', { name: 'Items Management' }).waitFor();

    const user = await t.createUser('sem-admin@example.com', 'sem-admin-password');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await login(page, user.email, user.password);
    await page.getByRole('menuitem', { name: 'Itens' }).waitFor();
    await expect(page.getByRole('menuitem', { name: 'Admin' }).count()).resolves.toBe(0);
    await page.goto('/admin');
    await page.getByText("The user doesn't have enough privileges").waitFor();
    await page.goto('/access-denied');
    await page.getByText("The user doesn't have enough privileges").waitFor();
  });

  it('counts on the dashboard lead to their lists', async () => {
    const su = await t.superuserToken();
    await t.request('POST', '/api/v1/items/', { token: su, json: { title: 'Contado' } });
    const page = await open();
    await login(page, SUPERUSER.email, SUPERUSER.password);
    const items = page.getByRole('link', { name: /^Itens \d+$/ });
    await items.waitFor();
    expect(Number((await items.textContent())?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
    await page.getByRole('link', { name: /^Usuários \d+$/ }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Users Management' }).waitFor();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.getByRole('link', { name: /^Clientes \d+$/ }).click();
    await page.waitForURL('**/clientes');
  });
});

describe('session', () => {
  const refusal = (code: string) => ({
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({
      data: null,
      errors: [{ message: 'Refused', extensions: { code, status: 403 } }],
    }),
  });

  it('stays signed in after a FORBIDDEN answer and signs out after an UNAUTHENTICATED one', async () => {
    const user = await t.createUser('sessao@example.com', 'sessao-password');
    const page = await open();
    await login(page, user.email, user.password);

    await page.route('**/graphql', (route) =>
      route.request().postData()?.includes('DashboardCounts') ? route.fulfill(refusal('FORBIDDEN')) : route.fallback(),
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Olá, Test User' }).waitFor();
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();

    await page.unroute('**/graphql');
    await page.route('**/graphql', (route) => route.fulfill(refusal('UNAUTHENTICATED')));
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });

  it('a refused login shows the detail under the password, and no toast', async () => {
    const page = await open();
    await page.goto('/login');
    await page.getByLabel('Email').fill(SUPERUSER.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Logar' }).click();
    await page.getByText('Incorrect email or password', { exact: true }).waitFor();
    await page.waitForTimeout(500);
    await expect(page.getByText('The form is not valid').count()).resolves.toBe(0);
    await expect(page.locator('.MuiSnackbar-root').count()).resolves.toBe(0);
  });
});
