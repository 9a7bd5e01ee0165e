export interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
  ms: number;
}

/** One HTTP request to a gateway, with the answer parsed when it is JSON and the time it took. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; form?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const started = performance.now();
  const response = await fetch(base + path, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, text, headers: response.headers, ms: performance.now() - started };
}
