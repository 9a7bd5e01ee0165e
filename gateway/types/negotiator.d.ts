// The part of negotiator 1.1's API the gateway uses (DefinitelyTyped describes 0.6, without `preferred`).
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';

  class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    /**
     * The available encodings the client accepts, best first: by quality, then (among equals) in `preferred`'s order.
     * `identity` is acceptable unless refused.
     */
    encodings(available: string[], options?: { preferred?: string[] }): string[];
  }

  export = Negotiator;
}
