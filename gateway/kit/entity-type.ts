import type { OptionalProps } from '@mikro-orm/core';
import type { Base, Field } from './field';

type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
/** A field's entity property: its declared `property`, else its name in camelCase (`full_name` → `fullName`). */
type PropertyName<K extends string, F> = F extends { property: infer P extends string }
  ? string extends P
    ? CamelCase<K>
    : P
  : CamelCase<K>;
/** A field's value as the ORM holds it: a reference as (at least) the id of the record it names, a moment a Date. */
type Stored<F> = F extends { kind: 'reference' }
  ? { id: string }
  : F extends { kind: 'datetime' }
    ? Date
    : F extends { kind: 'map'; items: { value: infer V } }
      ? Record<string, Stored<V>>
      : Base<F>;
type StoredValue<F> = Field extends F ? unknown : F extends { nullable: true } ? Stored<F> | null : Stored<F>;
/**
 * Fields the database fills in on create when not given: the id, defaulted, nullable and the timestamps (any field of
 * a resource not known, so that every resource's entity is one of any resource's).
 */
type Filled<FS> = {
  [K in keyof FS & string]: Field extends FS[K]
    ? K
    : FS[K] extends { kind: 'id' } | { default: unknown } | { nullable: true }
      ? PropertyName<K, FS[K]>
      : never;
}[keyof FS & string];

/** The entity of the fields `FS`: a property per stored field (a password is the service's to store), typed. */
export type EntityOfFields<FS> = {
  -readonly [
    K in keyof FS & string as FS[K] extends { kind: 'password' } ? never : PropertyName<K, FS[K]>
  ]: StoredValue<FS[K]>;
} & { id: string; createdAt: Date; updatedAt: Date; [OptionalProps]?: Filled<FS> | 'createdAt' | 'updatedAt' };
