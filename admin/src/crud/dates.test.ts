import { describe, expect, it } from 'vitest';
import { dayText, isRealDay, momentText } from './dates';
import { validatorsFor } from './validators';
import type { InputDescription } from './formInputs';

describe('moments and days on every screen', () => {
  it('writes a moment as dd/mm/aaaa hh:mm, in the viewer’s time zone, with no comma or seconds', () => {
    expect(momentText(new Date(2026, 2, 15, 14, 30, 12))).toBe('15/03/2026 14:30');
    expect(momentText(new Date(2026, 0, 5, 9, 5).toISOString())).toBe('05/01/2026 09:05');
  });

  it('writes a day as dd/mm/aaaa, never moved by the time zone', () => {
    expect(dayText('2026-03-20')).toBe('20/03/2026');
    expect(dayText('2026-01-01')).toBe('01/01/2026');
  });

  it('leaves what is not a moment or a day as it is', () => {
    expect(momentText('soon')).toBe('soon');
    expect(dayText('20/03/2026')).toBe('20/03/2026');
  });
});

describe('a date box’s value', () => {
  it('is a real day of a four-digit year', () => {
    expect(isRealDay('2026-03-20')).toBe(true);
    expect(isRealDay('2024-02-29')).toBe(true);
    expect(isRealDay('2026-03-20T14:30')).toBe(true);
    expect(isRealDay('20261-03-20')).toBe(false);
    expect(isRealDay('2026-02-30')).toBe(false);
    expect(isRealDay('2025-02-29')).toBe(false);
    expect(isRealDay('2026-13-01')).toBe(false);
    expect(isRealDay('20261-03-20T14:30')).toBe(false);
  });

  it('is refused by the form with a message in Portuguese, before anything is sent', () => {
    const input = (kind: 'date' | 'datetime'): InputDescription => ({
      source: 'due_on',
      kind,
      type: kind === 'date' ? 'Date' : 'DateTime',
      required: false,
      constraint: {},
      secret: false,
    });
    const check = (kind: 'date' | 'datetime', value: string) =>
      validatorsFor(input(kind), (rule) => `app.validation.${rule}`)
        .map((validator) => validator(value, {}, {}))
        .find(Boolean);
    expect(check('date', '20261-03-20')).toEqual({ message: 'app.validation.date', args: {} });
    expect(check('datetime', '20261-03-20T10:00')).toEqual({ message: 'app.validation.date', args: {} });
    expect(check('date', '2026-03-20')).toBeUndefined();
    expect(check('date', '')).toBeUndefined();
  });
});
