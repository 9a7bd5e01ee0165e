import { describe, expect, it } from 'vitest';
import { i18nProvider } from '.';
import { missingText } from './missing';

describe('a text a resource’s labels do not give', () => {
  it('reads as words made from its key, not as the key', () => {
    expect(missingText('resources.notes.fields.remind_at')).toBe('Remind at');
    expect(missingText('resources.notes.values.status.closed')).toBe('Closed');
    expect(missingText('resources.notes.menu')).toBe('Notes');
    expect(missingText('resources.notes.navigation.page', { page: 2 })).toBe('Page 2');
    expect(missingText('ra.action.unknown')).toBe('ra.action.unknown');
    expect(i18nProvider.translate('resources.notes.fields.due_on')).toBe('Due on');
    // A default given by the caller still wins: the screens ask `{ _: '' }` to know whether a label exists.
    expect(i18nProvider.translate('resources.notes.inputs.due_on', { _: '' })).toBe('');
  });
});
