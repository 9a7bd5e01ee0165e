import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { messages } from '../messages';
import { HEALTH_CHECK_PATH, securityHeaders } from './protections';

export interface InFlightBounds {
  /** Requests being answered at once, in all. */
  total: number;
  /** Requests being answered at once for one address (`req.ip`). */
  perAddress: number;
}

/** How soon a refused caller may try again (s). */
const RETRY_AFTER = '1';
/** Refusals are summed into one log line at most this often, not one line each. */
const REPORT_EVERY_MS = 10_000;

/**
 * Bounds the requests being answered at once, in all and per address, before any of them reaches a route, a parser
 * or the database: past either bound a request is answered 503 with Retry-After from memory, unread, and its
 * connection closed. Without it, thousands of requests from one address each waited for a database connection
 * with their request, parser and pending query held, until the heap ran out and the process died.
 *
 * The health check passes without being counted: it waits on nothing but one shared ping, and an orchestrator that
 * saw it refused during a flood would restart the gateway, finishing what the flood began.
 */
export function inFlightGate(bounds: InFlightBounds, log: Logger): RequestHandler {
  let total = 0;
  const perAddress = new Map<string, number>();
  const headers = securityHeaders();
  const body = Buffer.from(JSON.stringify({ detail: messages.serverBusy }));
  let refused = 0;
  let reporting = false;

  // One function for every request (no closure each): the response's request knows its address.
  function release(this: ServerResponse) {
    total--;
    const ip = (this.req as Request).ip ?? '';
    const count = perAddress.get(ip)! - 1;
    if (count === 0) perAddress.delete(ip);
    else perAddress.set(ip, count);
  }

  function report() {
    log.warn({ refused, bounds }, 'requests refused: too many in flight');
    refused = 0;
    reporting = false;
  }

  return (req, res, next) => {
    if (req.url === HEALTH_CHECK_PATH) return next();
    const ip = req.ip ?? '';
    const mine = perAddress.get(ip) ?? 0;
    if (total >= bounds.total || mine >= bounds.perAddress) {
      refused++;
      if (!reporting) {
        reporting = true;
        setTimeout(report, REPORT_EVERY_MS).unref();
      }
      res.setHeaders(headers);
      res.writeHead(503, {
        'Content-Type': 'application/json',
        'Content-Length': body.length,
        'Retry-After': RETRY_AFTER,
        Connection: 'close',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    total++;
    perAddress.set(ip, mine + 1);
    res.on('close', release);
    next();
  };
}
