import { createContext, lazy, Suspense, useContext, useState, type ReactNode } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import type { RecordActionDeclaration } from '../dataProvider/resourceTypes';
import { useFailureToast, useToast } from '../layout/useToast';
import type { ActionPrompt, PromptedRun } from './ActionPromptDialog';
import type { ActionOutcome } from './recordAction';

type Translate = ReturnType<typeof useTranslate>;

/** A screen's prompts, by action name: a record's prompt, or nothing where the action runs at once. */
export type ActionPrompts = Record<string, (record: RaRecord, translate: Translate) => ActionPrompt | undefined>;

/** The prompts of the screen around a list (an order's "Já está no Hiper" asks for Hiper's id); none by default. */
export const ActionPromptsContext = createContext<ActionPrompts>({});

// The dialogs' code comes when one first opens: a list's first screen needs none of it.
const ActionPromptDialog = lazy(() => import('./ActionPromptDialog'));
const ActionConfirm = lazy(() => import('./DeleteConfirm').then(({ ActionConfirm }) => ({ default: ActionConfirm })));

/** What a started action has open: its confirmation, or its prompt. */
type Asking =
  | { kind: 'confirm'; action: RecordActionDeclaration; record: RaRecord; run: PromptedRun }
  | { kind: 'prompt'; prompt: ActionPrompt; run: PromptedRun };

/**
 * A declared record action as a person starts it, from a row's menu or a record's dialog alike: confirmed first where
 * it cannot be undone (`confirm`), asked for what it needs where its screen has a prompt, else run at once; then told
 * in a toast (crud/recordAction.ts). `after` is given the outcome, and whether it came from a prompt (which stays
 * open over the dialog when refused, to be corrected). `dialog` is the confirmation or the prompt, to be drawn beside
 * what offered the action (its clicks kept from the row below it).
 */
export function useRecordAction(
  resource: string,
  representation: (record: RaRecord) => string,
): {
  start: (
    action: RecordActionDeclaration,
    record: RaRecord,
    after?: (outcome: ActionOutcome, prompted: boolean) => void,
  ) => void;
  dialog: ReactNode;
  running: boolean;
} {
  const prompts = useContext(ActionPromptsContext);
  const translate = useTranslate();
  const toast = useToast();
  const failed = useFailureToast();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [running, setRunning] = useState(false);
  const start = (
    action: RecordActionDeclaration,
    record: RaRecord,
    after?: (outcome: ActionOutcome, prompted: boolean) => void,
  ) => {
    const run: PromptedRun = async (variables, prompted) => {
      setRunning(true);
      // Its code comes when an action is first chosen: a list's first screen needs none of it.
      const outcome = await import('./recordAction')
        .then(({ runRecordAction }) =>
          runRecordAction({ resource, action, record, name: representation(record), translate, toast, variables }),
        )
        .catch((error: unknown): ActionOutcome => {
          failed(error);
          return { done: false };
        })
        .finally(() => setRunning(false));
      after?.(outcome, prompted);
      return outcome;
    };
    if (action.confirm) return setAsking({ kind: 'confirm', action, record, run });
    const prompt = prompts[action.name]?.(record, translate);
    if (prompt) setAsking({ kind: 'prompt', prompt, run });
    else void run({}, false);
  };
  const close = () => setAsking(null);
  const dialog =
    asking?.kind === 'prompt' ? (
      <span onClick={(event) => event.stopPropagation()}>
        <Suspense fallback={null}>
          <ActionPromptDialog prompt={asking.prompt} run={asking.run} onClose={close} />
        </Suspense>
      </span>
    ) : asking?.kind === 'confirm' ? (
      <span onClick={(event) => event.stopPropagation()}>
        <Suspense fallback={null}>
          <ActionConfirm
            resource={resource}
            action={asking.action}
            name={representation(asking.record)}
            // Confirmed: not a prompt to correct, so whatever offered it goes on as after any other action.
            onConfirm={() => asking.run({}, false)}
            onClose={close}
          />
        </Suspense>
      </span>
    ) : null;
  return { start, dialog, running };
}
