import type { IncomingMessage } from 'node:http';
import Negotiator from 'negotiator';

/** How a file named after its content (or its package's version) may be kept: a year, without asking again. */
export const FOREVER = 'public, max-age=31536000, immutable';

/**
 * The encodings the client accepts, of `compressed` and identity, best first: by quality, then compressed in the
 * order given (browsers send `gzip, deflate, br`, all equally wanted, and brotli is the smaller). Identity comes last
 * even when refused outright: the file as it is, rather than nothing, as serve-static answers.
 */
export function acceptedEncodings(req: Pick<IncomingMessage, 'headers'>, compressed: readonly string[]): string[] {
  const accepted = new Negotiator(req).encodings([...compressed, 'identity'], { preferred: [...compressed] });
  return accepted.includes('identity') ? accepted : [...accepted, 'identity'];
}
