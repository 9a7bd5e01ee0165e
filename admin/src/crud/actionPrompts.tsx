import { createContext, lazy, Suspense, useContext, useState, type ReactNode } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import type { ActionOutcome } from './recordAction';

type Translate = ReturnType<typeof useTranslate>;

/** What a record action asks before it runs: a confirmation naming its risk, and a value it takes when it takes one. */
export interface ActionPrompt {
  title: string;
  /** What to know before going on, one paragraph each. */
  text: string[];
  /** The button that runs the action. */
  confirm: string;
  /** An argument of the action's mutation, typed by the person in a text box (required). */
  input?: { name: string; label: string };
}

/** A screen's prompts, by action name: a record's prompt, or nothing where the action runs at once. */
export type ActionPrompts = Record<string, (record: RaRecord, translate: Translate) => ActionPrompt | undefined>;

/** The prompts of the screen around a list (an order's "Já está no Hiper" asks for Hiper's id); none by default. */
export const ActionPromptsContext = createContext<ActionPrompts>({});

/** Runs the action with what the prompt asked for; answers whether it was done, and why not. */
export type PromptedRun = (variables: Record<string, unknown>, prompted: boolean) => Promise<ActionOutcome>;

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
