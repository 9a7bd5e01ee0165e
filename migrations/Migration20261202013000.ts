import { Migration } from '@mikro-orm/migrations';
import { orderNotes, orderStateNames, webhookNotes } from '../schema/staff-notes';

/** Webhook notes as they were written in English, and what each now says. */
const WEBHOOK_NOTES: [string, string][] = [
  ['No client has this store', webhookNotes.no_client],
  ['Orders are off for this client', webhookNotes.orders_off],
  ['The product keeps no customer data: nothing to erase', webhookNotes.no_customer_data_erase],
  ['The product keeps no customer data: nothing to send', webhookNotes.no_customer_data_send],
  ['Older than the store’s latest install', webhookNotes.older_than_install],
  ['The store’s token still works: older than the store’s latest install', webhookNotes.token_still_works],
  ['App uninstalled: store token erased, client disconnected', webhookNotes.uninstalled],
  ['Unknown event', webhookNotes.unknown_event],
  ['The client is disconnected', webhookNotes.client_disconnected],
  ['The client has no store token', webhookNotes.no_store_token],
  ['A later suspension or resumption already decided', webhookNotes.later_decided],
  ['GET /store answered neither 200, 401 nor 402: state kept', webhookNotes.standing_unknown],
  ['GET /store answered 401: store token revoked', webhookNotes.standing_revoked],
  ['GET /store answered 402: store suspended, no calls to it but the suspended check', webhookNotes.standing_suspended],
  ['Unsigned: recorded, nothing erased', webhookNotes.unsigned_nothing_erased],
  ['Unsigned: recorded, nothing done', webhookNotes.unsigned_nothing_done],
  ['No client has this store: nothing to erase', webhookNotes.redact_no_client],
  ['The store’s data was already erased', webhookNotes.already_erased],
  ['The app is installed on this store: nothing erased', webhookNotes.installed_nothing_erased],
];

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Notes kept in English before the screens spoke Portuguese, rewritten as the catalogue now writes them: a webhook's
 * observation, an order held (or a history line written) when Hiper refused its key, and staff's Reenviar naming
 * the state it left in English. Notes with values (an
 * order's number, a count of links, a moment) keep their values.
 */
export class Migration20261202013000 extends Migration {
  override async up(): Promise<void> {
    const cases = WEBHOOK_NOTES.map(([was, now]) => `when ${quote(was)} then ${quote(now)}`).join(' ');
    const olds = WEBHOOK_NOTES.map(([was]) => quote(was)).join(', ');
    this.addSql(`update "webhook_events" set "note" = case "note" ${cases} end where "note" in (${olds});`);
    this.addSql(
      `update "webhook_events" set "note" = ${quote(webhookNotes.standing_working)}
        where "note" like 'GET /store answered 200: the store works%';`,
    );
    this.addSql(
      `update "webhook_events" set "note" = regexp_replace("note", '^Order (\\d+) recorded and queued$',
        'Pedido \\1 registrado e na fila para o Hiper') where "note" ~ '^Order \\d+ recorded and queued$';`,
    );
    this.addSql(
      `update "webhook_events" set "note" = regexp_replace("note",
        '^Store data erased: tokens and (\\d+) product links; the client record stays$',
        'Dados da loja apagados: tokens e \\1 vínculos de produtos; o cadastro do cliente fica')
        where "note" ~ '^Store data erased: tokens and \\d+ product links; the client record stays$';`,
    );
    this.addSql(
      `update "webhook_events" set "note" = 'Apagamento previsto para ' ||
          to_char(substring("note" from '^Erasure due at (\\S+),')::timestamptz at time zone 'America/Sao_Paulo',
            'DD/MM/YYYY HH24:MI') || ' (horário de Brasília), 48 h depois da desinstalação'
        where "note" ~ '^Erasure due at \\S+, 48 h after the uninstall$';`,
    );
    const keyRefused = quote(orderNotes.hiper_key_refused);
    this.addSql(
      `update "orders" set "hold_reason" = ${keyRefused} where "hold_reason" = 'Hiper refused the security key';`,
    );
    // A history line as the catalogue writes it: the key's hold, and staff's Reenviar naming the state it left.
    const states = Object.entries(orderStateNames)
      .map(([state, name]) => `when ${quote(state)} then ${quote(name)}`)
      .join(' ');
    const resent = `'^Reenviar pedido pela equipe \\(estava (\\w+)\\)'`;
    const rewritten = `case
      when line->>'note' = 'Hiper refused the security key' then ${keyRefused}
      when line->>'note' ~ ${resent} then 'Reenviado pela equipe (estava “' ||
        (case substring(line->>'note' from ${resent}) ${states} else substring(line->>'note' from ${resent}) end) ||
        '”)' || regexp_replace(line->>'note', ${resent}, '')
      end`;
    this.addSql(
      `update "orders" set "history" = (
          select jsonb_agg(case when (${rewritten}) is null then line
            else jsonb_set(line, '{note}', to_jsonb((${rewritten})::text)) end order by at)
          from jsonb_array_elements("history") with ordinality as lines(line, at))
        where "history" @> '[{"note": "Hiper refused the security key"}]'
          or "history"::text like '%Reenviar pedido pela equipe (estava %';`,
    );
  }

  override async down(): Promise<void> {
    // The English texts are not written back: both say the same, and the screens now speak Portuguese.
  }
}
