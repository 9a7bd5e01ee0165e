/** How one send to Hiper ended, as the order's history tells it. */
export type AttemptOutcome = 'sent' | 'refused' | 'unknown' | 'waiting' | 'unrecorded';

/** One send to Hiper: when it began, how it ended, and the note that says what Hiper answered (or that it did not). */
export interface SendAttempt {
  at: string;
  outcome: AttemptOutcome;
  said: string | null;
}

interface Step {
  at?: unknown;
  state?: unknown;
  note?: unknown;
}

/** The state the step after a send reached, read as that send's outcome. */
const OUTCOMES: Record<string, AttemptOutcome> = {
  sent: 'sent',
  held: 'refused',
  // Hiper busy (429): nothing was created, the job tries again.
  received: 'refused',
  uncertain: 'unknown',
};

/**
 * An order's sends to Hiper, oldest first: every step of its history that reached `sending` (the product writes one
 * before each POST), each ended by the step after it (written with Hiper's answer, or by the sweep of a send whose
 * process died). An order still sending with no later step is waiting for that answer.
 */
export function sendAttempts(history: unknown, state?: unknown): SendAttempt[] {
  const steps = (Array.isArray(history) ? history : []) as Step[];
  const attempts: SendAttempt[] = [];
  steps.forEach((step, i) => {
    if (step?.state !== 'sending') return;
    const next = steps[i + 1];
    const outcome = next
      ? (OUTCOMES[String(next.state)] ?? 'unrecorded')
      : state === 'sending'
        ? 'waiting'
        : 'unrecorded';
    attempts.push({
      at: String(step.at ?? ''),
      outcome,
      said: next && typeof next.note === 'string' ? next.note : null,
    });
  });
  return attempts;
}
