import { createContext, lazy, Suspense, useContext, useState, type ReactNode } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import type { ActionPrompt, PromptedRun } from './ActionPromptDialog';

type Translate = ReturnType<typeof useTranslate>;

/** A screen's prompts, by action name: a record's prompt, or nothing where the action runs at once. */
export type ActionPrompts = Record<string, (record: RaRecord, translate: Translate) => ActionPrompt | undefined>;

/** The prompts of the screen around a list (an order's "Já está no Hiper" asks for Hiper's id); none by default. */
export const ActionPromptsContext = createContext<ActionPrompts>({});

// The dialog's code comes when a prompt first opens: a list's first screen needs none of it.
const ActionPromptDialog = lazy(() => import('./ActionPromptDialog'));

/**
 * A record action that asks first where its screen says so: `start` runs it at once or opens its prompt, and `dialog`
 * is that prompt, to be drawn beside what offered the action (its clicks kept from the row below it).
 */
export function usePromptedAction(): {
  start: (action: string, record: RaRecord, run: PromptedRun) => void;
  dialog: ReactNode;
} {
  const prompts = useContext(ActionPromptsContext);
  const translate = useTranslate();
  const [open, setOpen] = useState<{ prompt: ActionPrompt; run: PromptedRun } | null>(null);
  const start = (action: string, record: RaRecord, run: PromptedRun) => {
    const prompt = prompts[action]?.(record, translate);
    if (prompt) setOpen({ prompt, run });
    else void run({}, false);
  };
  const dialog = open ? (
    <span onClick={(event) => event.stopPropagation()}>
      <Suspense fallback={null}>
        <ActionPromptDialog prompt={open.prompt} run={open.run} onClose={() => setOpen(null)} />
      </Suspense>
    </span>
  ) : null;
  return { start, dialog };
}
