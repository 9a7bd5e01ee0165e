import type { RaRecord, useTranslate } from 'react-admin';
import { ApiError, isNetworkFailure, errorText } from '../api';
import { dataProvider } from '../dataProvider';
import { typeOfResource, type RecordActionDeclaration } from '../dataProvider/resourceTypes';
import { answerType, stateField } from '../dataProvider/writeOperations';
import { fieldsOf } from './description';
import type { Severity } from '../layout/useToast';

type Translate = ReturnType<typeof useTranslate>;

/** How a record action went: done, or not and why. */
export interface ActionOutcome {
  done: boolean;
  why?: string;
}
type Toast = (title: string, description?: string, severity?: Severity) => void;

/** The answer's state (a run's `state`). */
function stateOf(mutation: string, answer: unknown): string | undefined {
  const type = answerType(mutation);
  const name = type && stateField(type);
  if (!name || !answer || typeof answer !== 'object') return undefined;
  const value = (answer as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** Whether the screen's labels have a text under this key. */
const has = (translate: Translate, key: string) => translate(key, { _: '\u0000' }) !== '\u0000';

/**
 * Runs a record's declared action (`@resource(actions: ...)`) and tells how it went, in the screen's words
 * (`resources.<screen>.actions.<name>`):
 *
 * - `done.<state>.title|description`: the action did new work, answered in that state (a run `queued`); `done.title`
 *   when its answer has no state;
 * - `already.<state>.title|description`: the answer is work already under way: the record showed that state before
 *   the click (a client already `queued`), or the state has no `done` text (a run already `running`);
 * - `failed`: the title of a failure; `errors.<detail>`: the server's detail in the screen's words (an unknown one
 *   is shown as the server gave it; no answer at all, as the app says it).
 *
 * `%{name}` in a description is the record as its screen names it. Answers whether the action was done, and why not
 * in the screen's words (for a prompt, whose modal keeps the toast from screen readers, to say too).
 */
export async function runRecordAction({
  resource,
  action,
  record,
  name,
  translate,
  toast,
  variables = {},
}: {
  resource: string;
  action: RecordActionDeclaration;
  record: RaRecord;
  name: string;
  translate: Translate;
  toast: Toast;
  /** What a prompt asked for (crud/actionPrompts.ts), by argument name. */
  variables?: Record<string, unknown>;
}): Promise<ActionOutcome> {
  const key = `resources.${resource}.actions.${action.name}`;
  let answer: unknown;
  try {
    ({ data: answer } = await dataProvider.recordAction(resource, {
      id: String(record.id),
      mutation: action.mutation,
      variables,
    }));
  } catch (error) {
    const detail = error instanceof ApiError && typeof error.detail === 'string' ? error.detail : errorText(error);
    const description = isNetworkFailure(error)
      ? translate('app.notification.network')
      : translate(`${key}.errors.${detail}`, { _: detail });
    toast(translate(`${key}.failed`), description, 'error');
    return { done: false, why: description };
  }
  const state = stateOf(action.mutation, answer);
  const fields = fieldsOf(typeOfResource(resource));
  const showed = (value: string) =>
    Object.keys(fields).some((field) => fields[field].values && record[field] === value);
  // The first of these the labels have: work the record already showed under way, new work in the state it is
  // answered in, work found under way, or plain done.
  const candidates = state
    ? [
        ...(showed(state) ? [`${key}.already.${state}`] : []),
        `${key}.done.${state}`,
        `${key}.already.${state}`,
        `${key}.done`,
      ]
    : [`${key}.done`];
  const message = candidates.find((candidate) => has(translate, `${candidate}.title`)) ?? `${key}.done`;
  const description = translate(`${message}.description`, { name, _: '' });
  toast(translate(`${message}.title`), description || undefined, message.includes('.already.') ? 'info' : 'success');
  return { done: true };
}
