import { brasiliaMoment, healthNames } from '../../schema/staff-notes';
import { buttonLink, escapeHtml, htmlEmail } from './layout';
import type { Mail } from './mailer';

/** A client's health as an alert names it: its name, its health, its reasons (text and since when). */
export interface ClientHealthFacts {
  clientId: string;
  name: string;
  health: keyof typeof healthNames;
  reasons: { code: string; text: string; since: string }[];
}

/** The Saúde screen narrowed to one client, or every client. */
export const healthLink = (frontendHost: string, clientId?: string) =>
  new URL(
    clientId ? `/saude?filter=${encodeURIComponent(JSON.stringify({ client_id: clientId }))}` : '/saude',
    frontendHost,
  ).toString();

const reasonLine = (reason: { text: string; since: string }) =>
  `${reason.text} (desde ${brasiliaMoment(new Date(reason.since))})`;

/**
 * A client has been critical (or in attention) long enough: its name, the reasons alerted and the link to it on the
 * Saúde screen. In Portuguese, as the screens are.
 */
export function healthAlertEmail(opts: {
  projectName: string;
  to: string;
  client: ClientHealthFacts;
  codes: readonly string[];
  link: string;
}): Mail {
  const { projectName, to, client, link } = opts;
  const alerted = client.reasons.filter((reason) => opts.codes.includes(reason.code));
  const reasons = alerted.length ? alerted : client.reasons;
  const subject = `${projectName} - ${healthNames[client.health]}: ${client.name}`;
  const html = htmlEmail(
    subject,
    `${healthNames[client.health]}: ${client.name}`,
    [
      `O cliente <strong>${escapeHtml(client.name)}</strong> precisa de uma pessoa:`,
      `<ul>${reasons.map((reason) => `<li>${escapeHtml(reasonLine(reason))}</li>`).join('')}</ul>`,
      buttonLink(link, 'Ver na tela Saúde'),
      `Ou copie este endereço no navegador: <br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
    ],
    'pt-BR',
  );
  const text = `${healthNames[client.health]}: ${client.name}

O cliente ${client.name} precisa de uma pessoa:
${reasons.map((reason) => `- ${reasonLine(reason)}`).join('\n')}

Ver na tela Saúde: ${link}`;
  return { to, subject, html, text };
}

/** A client alerted about is back below the alert level. */
export function healthRecoveredEmail(opts: {
  projectName: string;
  to: string;
  client: ClientHealthFacts;
  link: string;
}): Mail {
  const { projectName, to, client, link } = opts;
  const state = healthNames[client.health];
  const subject = `${projectName} - De volta: ${client.name} (${state})`;
  const rest = client.reasons.length ? ` Ainda: ${client.reasons.map((reason) => reason.text).join('; ')}.` : '';
  const html = htmlEmail(
    subject,
    `De volta: ${client.name}`,
    [
      `O cliente <strong>${escapeHtml(client.name)}</strong> está “${escapeHtml(state)}”.${escapeHtml(rest)}`,
      buttonLink(link, 'Ver na tela Saúde'),
    ],
    'pt-BR',
  );
  const text = `De volta: ${client.name}

O cliente ${client.name} está “${state}”.${rest}

Ver na tela Saúde: ${link}`;
  return { to, subject, html, text };
}

/** Every client not "Em dia", worst first, once a day. */
export function healthDigestEmail(opts: {
  projectName: string;
  to: string;
  clients: ClientHealthFacts[];
  link: string;
}): Mail {
  const { projectName, to, clients, link } = opts;
  const critical = clients.filter((client) => client.health === 'critical').length;
  const attention = clients.length - critical;
  const summary = `${critical} ${critical === 1 ? 'cliente crítico' : 'clientes críticos'}, ${attention} em atenção`;
  const subject = `${projectName} - Resumo do dia: ${summary}`;
  const html = htmlEmail(
    subject,
    `Resumo do dia: ${summary}`,
    [
      ...clients.map(
        (client) =>
          `<strong>${escapeHtml(client.name)}</strong> (${escapeHtml(healthNames[client.health])})<br>` +
          client.reasons.map((reason) => escapeHtml(reasonLine(reason))).join('<br>'),
      ),
      buttonLink(link, 'Ver na tela Saúde'),
    ],
    'pt-BR',
  );
  const text = `Resumo do dia: ${summary}

${clients
  .map(
    (client) =>
      `${client.name} (${healthNames[client.health]})\n${client.reasons.map((r) => `- ${reasonLine(r)}`).join('\n')}`,
  )
  .join('\n\n')}

Ver na tela Saúde: ${link}`;
  return { to, subject, html, text };
}
