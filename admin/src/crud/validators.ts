import { useMemo } from 'react';
import { email, useTranslate, type Validator } from 'react-admin';
import { isRealDay } from './dates';
import type { InputDescription } from './formInputs';

type Rule =
  'required' | 'minLength' | 'maxLength' | 'minValue' | 'maxValue' | 'email' | 'url' | 'digits' | 'match' | 'date';

/** The translation key of a rule's message: the screen's own for this field if it has one, else the shared one. */
export type MessageKey = (rule: Rule) => string;

const text = (value: unknown) => (value == null ? '' : String(value));

/** An http or https address with a host, as the gateway takes it (`format: "url"`). */
export function isHttpUrl(value: string): boolean {
  const typed = value.trim();
  if (!/^https?:\/\/[^/?#\s]/i.test(typed)) return false;
  try {
    return !!new URL(typed).hostname;
  } catch {
    return false;
  }
}

/** A marker react-admin reads to show the input as required. */
const markRequired = (validator: Validator) => Object.assign(validator, { isRequired: true });

/**
 * The validators of an input, from its argument's description: required (surrounding spaces trimmed), the
 * @constraint bounds (minLength / maxLength on text, min / max on numbers), the email and url formats, and digits only
 * for a number typed as text. Messages are react-admin's (`ra.validation.*`) unless the screen words one for the field.
 */
export function validatorsFor(input: InputDescription, messageKey: MessageKey): Validator[] {
  const { constraint } = input;
  const validators: Validator[] = [];
  const message = (rule: Rule, args: Record<string, unknown> = {}) => ({ message: messageKey(rule), args });
  if (input.required) {
    validators.push(markRequired((value) => (text(value).trim() ? undefined : message('required'))));
  }
  if (input.kind === 'boolean') return validators;
  if (input.kind === 'date' || input.kind === 'datetime') {
    // Checked here, not left to the gateway: a browser's date box takes a year of up to six digits.
    validators.push((value) => (text(value) && !isRealDay(text(value)) ? message('date') : undefined));
    return validators;
  }
  if (input.kind === 'number') {
    const signed = constraint.min === undefined || constraint.min < 0;
    const pattern = input.type === 'Float' ? /^-?\d+(\.\d+)?$/ : signed ? /^-?\d+$/ : /^\d+$/;
    validators.push((value) => {
      const typed = text(value).trim();
      if (!typed) return undefined;
      if (!pattern.test(typed)) return message('digits');
      const number = Number(typed);
      if (constraint.min !== undefined && number < constraint.min) return message('minValue', { min: constraint.min });
      if (constraint.max !== undefined && number > constraint.max) return message('maxValue', { max: constraint.max });
      return undefined;
    });
    return validators;
  }
  const { minLength, maxLength } = constraint;
  if (minLength !== undefined && minLength > 1) {
    validators.push((value) => {
      const length = text(value).length;
      return length && length < minLength ? message('minLength', { min: minLength }) : undefined;
    });
  }
  if (maxLength !== undefined) {
    validators.push((value) => (text(value).length > maxLength ? message('maxLength', { max: maxLength }) : undefined));
  }
  if (constraint.format === 'email') {
    validators.push(email(messageKey('email')));
  }
  if (constraint.format === 'url') {
    validators.push((value) => (text(value).trim() && !isHttpUrl(text(value)) ? message('url') : undefined));
  }
  return validators;
}

/** The messages' keys for one field of a resource: `resources.<name>.validation.<field>.<rule>` when it exists. */
export function useMessageKey(resource: string, source: string): MessageKey {
  const translate = useTranslate();
  return useMemo(() => {
    return (rule: Rule) => {
      const own = `resources.${resource}.validation.${source}.${rule}`;
      if (translate(own, { _: '' })) return own;
      return rule === 'digits' || rule === 'match' || rule === 'url' || rule === 'date'
        ? `app.validation.${rule}`
        : `ra.validation.${rule}`;
    };
  }, [translate, resource, source]);
}

/** Asks an input to hold the same value as another one (a password's confirmation). */
export const matches =
  (other: string, messageKey: MessageKey): Validator =>
  (value, values) =>
    text(value) === text(values[other]) ? undefined : { message: messageKey('match'), args: {} };
