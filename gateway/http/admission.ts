import type { IncomingHttpHeaders } from 'node:http';

/** What is known of a request before its body is read. */
export interface AdmissionRequest {
  headers: IncomingHttpHeaders;
  ip: string;
}

/** How a request is taken: its body read up to `limit`, and its reading and answer run by `run` (a bound, say). */
export interface Admission {
  limit: string;
  run<T>(work: () => Promise<T>): Promise<T>;
}
