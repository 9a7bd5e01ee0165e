import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { ActionOutcome } from './recordAction';
import { useScreenLang } from './ScreenLanguage';

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

/** Runs the action with what the prompt asked for; answers whether it was done, and why not. */
export type PromptedRun = (variables: Record<string, unknown>, prompted: boolean) => Promise<ActionOutcome>;

/**
 * A record action's prompt: what to know before it runs, the value it takes when it takes one, Cancel and the
 * action's own button. It closes once the action was done; a refusal leaves it open to correct, saying why in it (the
 * modal hides the toast from screen readers).
 */
export default function ActionPromptDialog({
  prompt,
  run,
  onClose,
}: {
  prompt: ActionPrompt;
  run: PromptedRun;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const [value, setValue] = useState('');
  const [running, setRunning] = useState(false);
  const [why, setWhy] = useState<string>();
  const missing = !!prompt.input && value.trim() === '';
  const confirm = async () => {
    setRunning(true);
    const outcome = await run(prompt.input ? { [prompt.input.name]: value.trim() } : {}, true);
    setRunning(false);
    if (outcome.done) onClose();
    else setWhy(outcome.why);
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs" lang={useScreenLang()}>
      <DialogTitle id={titleId}>{prompt.title}</DialogTitle>
      <DialogContent>
        {prompt.text.map((paragraph, i) => (
          <DialogContentText key={i} sx={{ mb: 1.5 }}>
            {paragraph}
          </DialogContentText>
        ))}
        {prompt.input && (
          <TextField
            autoFocus
            fullWidth
            required
            margin="dense"
            label={prompt.input.label}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !missing && !running) void confirm();
            }}
          />
        )}
        {why && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {why}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={missing || running} onClick={() => void confirm()}>
          {prompt.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
