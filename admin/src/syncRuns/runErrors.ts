/** One error of a run as the API answers it (`errors` of a SyncRun): its code is what the screen says. */
export interface RunError {
  hiper_id: string;
  sku: string | null;
  message: string;
  code?: string;
  detail?: string;
  /** The location's name, for an error of one location (`%{nome}` in its code's text). */
  location?: string;
}

/** While a step waits to try a platform again (`waiting` of a SyncRun). */
export interface RunWaiting {
  code: string;
  message: string;
  attempt: number;
  attempts: number;
  retry_at: string;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What an error says in the screen's language: its code's text (the English message for a code it lacks). */
export function reasonText(
  error: { code?: string; message: string; detail?: string; location?: string },
  translate: Translate,
): string {
  const reason = translate(`resources.sincronizacoes.errors.${error.code ?? ''}`, {
    _: error.message,
    nome: error.location ?? '',
  });
  return error.detail ? `${reason}: ${error.detail}` : reason;
}

/** A run's first error, named by its product's SKU when it is a product's, and how many more there are. */
export function firstErrorText(errors: RunError[] | null | undefined, translate: Translate): string {
  const [first, ...rest] = errors ?? [];
  if (!first) return '';
  const text = first.sku
    ? translate('resources.sincronizacoes.error_of_sku', { sku: first.sku, reason: reasonText(first, translate) })
    : reasonText(first, translate);
  return rest.length ? `${text} ${translate('resources.sincronizacoes.more_errors', { count: rest.length })}` : text;
}

/** `Aguardando nova tentativa: não foi possível falar com o Hiper (tentativa 3 de 8)`, and when it comes. */
export function waitingText(waiting: RunWaiting | null | undefined, translate: Translate, lang = 'pt-BR'): string {
  if (!waiting) return '';
  const reason = reasonText(waiting, translate);
  const text = translate('resources.sincronizacoes.retry.waiting', {
    reason: reason.charAt(0).toLocaleLowerCase(lang) + reason.slice(1),
    attempt: waiting.attempt,
    attempts: waiting.attempts,
  });
  const time = new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(waiting.retry_at));
  return translate('resources.sincronizacoes.retry.at', { text, time });
}
