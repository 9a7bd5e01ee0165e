import autocannon from 'autocannon';

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;

/**
 * Runs one autocannon load against `url` and summarizes it. Latencies are taken from every response's own
 * timing (sub-millisecond, all status codes), so p50/p99 are exact rather than histogram buckets.
 * Anything but a 2xx answer, a socket error or a timeout is counted as an error.
 */
export function runLoad({ url, connections, duration, request, timeout = 10 }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const statuses = {};
    const instance = autocannon(
      {
        url: url + (request.path ?? ''),
        connections,
        duration,
        timeout,
        method: request.method ?? 'GET',
        headers: request.headers ?? {},
        body: request.body,
        requests: request.setup ? [{ setupRequest: request.setup }] : undefined,
      },
      (error, result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        const seconds = result.duration;
        const non2xx = result.non2xx;
        resolve({
          requests: result.requests.total,
          rps: seconds > 0 ? result.requests.total / seconds : 0,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          max: latencies.at(-1) ?? null,
          errors: result.errors + result.timeouts + non2xx,
          statuses,
          seconds,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}
