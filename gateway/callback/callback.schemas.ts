import { z } from 'zod';

export const AuthorizeCallback = z
  .object({ code: z.string().trim().min(1).max(512) })
  .meta({ id: 'AuthorizeCallback' });
export const CallbackAnswer = z
  .object({ message: z.string(), checkout_url: z.string() })
  .meta({ id: 'CallbackAnswer' });
export type AuthorizeCallback = z.output<typeof AuthorizeCallback>;
export type CallbackAnswer = z.output<typeof CallbackAnswer>;
