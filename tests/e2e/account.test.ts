import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { freePort } from '../support/net';
import { refusal, startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { browserSuite, expectToast, login } from './support/browser';

/** A mailbox the mail server refuses. */
const BOUNCING = 'no-such-mailbox@example.com';

let t: TestGateway;
let mail: TestSmtp;
let platform: NuvemshopStandIn;

/** The store platform grants `good-code` only. */
const grantGoodCode = (code: string) =>
  code === 'good-code'
    ? {
        status: 200,
        body: { access_token: 'store-access-token', token_type: 'bearer', scope: 'write_products', user_id: 98765 },
      }
    : refusal();

const open = browserSuite(
  async () => {
    [mail, platform] = await Promise.all([
      startTestSmtp({ reject: (address) => address === BOUNCING }),
      startNuvemshopStandIn(grantGoodCode),
    ]);
    const port = await freePort();
    t = await startTestGateway({
      PORT: String(port),
      FRONTEND_HOST: `http://127.0.0.1:${port}`,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(mail.port),
      SMTP_TLS: 'false',
      EMAILS_FROM_EMAIL: 'no-reply@example.com',
      NUVEMSHOP_TOKEN_URL: platform.url,
      NUVEMSHOP_CLIENT_ID: '1234',
      NUVEMSHOP_CLIENT_SECRET: 'secret',
      CHECKOUT_URL: platform.checkoutUrl,
      // A refused mail fails for good at once, for the dashboard's count.
      MAIL_RETRY_LIMIT: '0',
    });
    return t;
  },
  async () => {
    await mail?.close();
    await platform?.close();
  },
);

describe('own account', () => {
  it('edits the own profile, and Cancel puts the saved values back', async () => {
    const user = await t.createUser('perfil@example.com', 'perfil-password');
    const page = await open();
    await login(page, user.email, user.password);
    await page.getByRole('button', { name: 'Test User' }).click();
    await page.getByRole('menuitem', { name: 'Meu perfil' }).click();
    await page.waitForURL('**/config');
    await page.getByRole('heading', { name: 'Configurações do usuário' }).waitFor();
    for (const tab of ['Meu perfil', 'Senha', 'Aparência', 'Danger zone'])
      await page.getByRole('tab', { name: tab }).waitFor();

    const panel = page.getByRole('tabpanel');
    await panel.getByText('Test User').waitFor();
    await page.getByRole('button', { name: 'Editar' }).click();
    expect(await page.getByRole('button', { name: 'Salvar' }).isDisabled()).toBe(true);
    await page.getByLabel('Full name').fill('Nome Temporário');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await panel.getByText('Test User').waitFor();
    await page.getByRole('button', { name: 'Editar' }).click();
    expect(await page.getByLabel('Full name').inputValue()).toBe('Test User');

    await page.getByLabel('Full name').fill('x'.repeat(31));
    await page.getByLabel('Email').focus();
    await page.getByText('Full name must be at most 30 characters', { exact: true }).waitFor();
    await page.getByLabel('Full name').fill('Paula Perfil');
    await page.getByLabel('Email').fill('');
    expect(await page.getByRole('button', { name: 'Salvar' }).isDisabled()).toBe(true);
    await page.getByLabel('Email').fill('paula@example.com');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Success!', 'User updated successfully.');
    await panel.getByText('Paula Perfil').waitFor();
    await page.getByText('Logado como: paula@example.com').waitFor();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Olá, Paula Perfil' }).waitFor();
  });

  it('changes the password and stays signed in: a wrong current password is refused, a right one works', async () => {
    const user = await t.createUser('senha@example.com', 'first-password');
    const elsewhere = await t.login(user.email, user.password);
    const page = await open();
    await login(page, user.email, user.password);
    await page.goto('/config');
    await page.getByRole('tab', { name: 'Senha' }).click();
    await page.getByLabel('Current Password').fill('not-my-password');
    await page.getByLabel('New Password').fill('second-password');
    await page.getByLabel('Confirm Password').fill('other-password');
    await page.getByLabel('Current Password').focus();
    await page.getByText('The passwords do not match', { exact: true }).waitFor();
    await page.getByLabel('Confirm Password').fill('second-password');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Something went wrong.', 'Incorrect password');

    await page.getByLabel('Current Password').fill('first-password');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Success!', 'Password updated successfully.');
    expect(
      (
        await t.request('POST', '/api/v1/login/access-token', {
          form: { username: user.email, password: 'second-password' },
        })
      ).status,
    ).toBe(200);

    // The session that changed it goes on: the next clicks and a reload stay signed in.
    await page.getByRole('tab', { name: 'Meu perfil' }).click();
    await page.getByRole('tabpanel').getByText('Test User').waitFor();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Olá, Test User' }).waitFor();
    await page.goto('/clientes');
    await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/clientes');
    // A second change from the same screen works too.
    await page.goto('/config');
    await page.getByRole('tab', { name: 'Senha' }).click();
    await page.getByLabel('Current Password').fill('second-password');
    await page.getByLabel('New Password').fill('third-password');
    await page.getByLabel('Confirm Password').fill('third-password');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Success!', 'Password updated successfully.');
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Olá, Test User' }).waitFor();
    // Every other session of the user ended with the first change.
    const other = await t.request('GET', '/api/v1/users/me', { token: elsewhere });
    expect(other).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
  });

  it('keeps dark mode across reloads', async () => {
    const page = await open();
    await login(page, SUPERUSER.email, SUPERUSER.password);
    await page.goto('/config');
    // Superusers have no Danger zone.
    await page.getByRole('tab', { name: 'Aparência' }).waitFor();
    await expect(page.getByRole('tab', { name: 'Danger zone' }).count()).resolves.toBe(0);
    await page.getByRole('tab', { name: 'Aparência' }).click();
    expect(await page.getByLabel('Modo claro (padrão)').isChecked()).toBe(true);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.getByLabel('Modo escuro').check();
    await expect.poll(background).not.toBe(light);
    await page.reload();
    await page.getByRole('tab', { name: 'Aparência' }).click();
    expect(await page.getByLabel('Modo escuro').isChecked()).toBe(true);
    expect(await background()).not.toBe(light);
    await page.getByLabel('Modo claro (padrão)').check();
    await expect.poll(background).toBe(light);
  });

  it('deleting the own account signs out', async () => {
    const user = await t.createUser('apagar@example.com', 'apagar-password');
    const page = await open();
    await login(page, user.email, user.password);
    await page.goto('/config');
    await page.getByRole('tab', { name: 'Danger zone' }).click();
    await page.getByRole('button', { name: 'Excluir conta' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('excluídos permanentemente').waitFor();
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await page.waitForURL('**/login');
    await expectToast(page, 'Success!', 'Your account has been successfully deleted.');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    expect(await t.sql("select id from users where email = 'apagar@example.com'")).toEqual([]);
  });
});

describe('password recovery', () => {
  it('sends an email whose link sets a new password', async () => {
    await t.createUser('esqueci@example.com', 'old-password');
    const page = await open();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/recover-password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Email is required', { exact: true }).waitFor();
    await page.getByLabel('Email').fill('esqueci@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectToast(page, 'Email sent.', 'We sent an email with a link to get back into your account.');

    const message = await mail.waitFor('esqueci@example.com', 15_000);
    const link = String(message.html || message.text).match(
      /https?:\/\/[^"'\s<>]+\/reset-password\?token=[^"'\s<>]+/,
    )?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!.replace(/&amp;/g, '&'));
    await page.getByLabel('New Password').fill('brand-new-password');
    await page.getByLabel('Confirm Password').fill('brand-new-passwor');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('The passwords do not match', { exact: true }).waitFor();
    await page.getByLabel('Confirm Password').fill('brand-new-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.waitForURL('**/login');
    await expectToast(page, 'Success!', 'Password updated successfully.');
    await login(page, 'esqueci@example.com', 'brand-new-password');

    // A used token has the right shape: the server refuses it, with its detail.
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.goto(link!.replace(/&amp;/g, '&'));
    await page.getByLabel('New Password').fill('another-password');
    await page.getByLabel('Confirm Password').fill('another-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expectToast(page, 'Error', 'Invalid token');
  });

  it('says at once that a link without a token, or with a malformed one, is invalid, and offers a new one', async () => {
    const page = await open();
    for (const path of ['/reset-password', '/reset-password?token=not-a-token']) {
      await page.goto(path);
      await page.getByText('This password reset link is invalid or has expired.').waitFor();
      await expect(page.getByLabel('New Password').count()).resolves.toBe(0);
    }
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await page.waitForURL('**/recover-password');
    await page.getByRole('button', { name: 'Continue' }).waitFor();
  });
});

describe('failed mail on the dashboard', () => {
  it('is counted for superusers only', async () => {
    const su = await t.superuserToken();
    const created = await t.request('POST', '/api/v1/users/', {
      token: su,
      json: { email: BOUNCING, password: 'a-good-password' },
    });
    expect(created.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await t.graphql('{ _allMailJobsMeta(filter: { state: failed }) { count } }', {}, su)).body.data
            ._allMailJobsMeta.count,
        { timeout: 15_000 },
      )
      .toBe(1);

    const page = await open();
    await login(page, SUPERUSER.email, SUPERUSER.password);
    await page.getByText('E-mails que falharam: 1').waitFor();

    const user = await t.createUser('sem.emails@example.com', 'sem-emails-password');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await login(page, user.email, user.password);
    await page.getByRole('heading', { name: 'Olá, Test User' }).waitFor();
    await expect(page.getByText(/E-mails que falharam/).count()).resolves.toBe(0);
  });
});

describe('store authorization callback', () => {
  it('posts the code once and goes to the checkout after the success message', async () => {
    const page = await open();
    await page.goto('/callback?code=good-code');
    await page.getByRole('heading', { name: 'Autorização bem sucedida!' }).waitFor();
    await page.getByText('Sucesso!').waitFor();
    await page.getByText('Redirecionando para pagamento...').waitFor();
    await page.waitForURL(platform.checkoutUrl);
    await page.getByRole('heading', { name: 'Pagamento' }).waitFor();
    expect(platform.exchanges('good-code')).toBe(1);
    const [client] = await t.sql<{ nuvemshop_token: string }>(
      'select nuvemshop_token from clients where nuvemshop_store_id = 98765',
    );
    expect(client?.nuvemshop_token).toBeTruthy();
  });

  it('shows nothing more when the platform refuses the code', async () => {
    const page = await open();
    await page.goto('/callback?code=bad-code');
    await page.getByRole('heading', { name: 'Autorização bem sucedida!' }).waitFor();
    await expect.poll(() => platform.exchanges('bad-code')).toBeGreaterThan(0);
    await page.waitForTimeout(1000);
    expect(new URL(page.url()).pathname).toBe('/callback');
    await expect(page.getByText('Sucesso!').count()).resolves.toBe(0);
  });
});

describe('phone width', () => {
  it('opens the menu from a hamburger, with the same entries', async () => {
    const page = await open({ width: 390, height: 844 });
    await login(page, SUPERUSER.email, SUPERUSER.password);
    await expect(page.getByRole('menuitem', { name: 'Clientes', exact: true }).isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    for (const entry of ['Dashboard', 'Clientes', 'Itens', 'Configurações', 'Admin', 'Logout']) {
      await page.getByRole('menuitem', { name: entry, exact: true }).waitFor();
    }
    await page.getByText('Logado como: admin@example.com').waitFor();
    await page.getByRole('menuitem', { name: 'Clientes', exact: true }).click();
    await page.waitForURL('**/clientes');
    await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
  });
});
