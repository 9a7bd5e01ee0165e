import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

/** What a browser gets, bytes and headers as sent: the test's own client does not undo the encoding. */
function raw(
  base: string,
  path: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, base), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

const decoded = (answer: { headers: http.IncomingHttpHeaders; body: Buffer }) => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body).toString();
  return answer.body.toString();
};

const BROWSER = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };

let t: TestGateway;
let token: string;
beforeAll(async () => {
  t = await startTestGateway();
  token = await t.superuserToken();
  for (let i = 0; i < 12; i++) {
    const created = await t.request('POST', '/api/v1/items/', {
      token,
      json: { title: `Item comprimido ${i}`, description: 'Uma descrição que se repete. '.repeat(6) },
    });
    expect(created.status).toBe(200);
  }
});
afterAll(() => t?.close());

describe('every text answer over 1 KiB', () => {
  it('goes compressed to a browser that accepts it over REST, the same JSON once decoded', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const plain = await raw(t.url, '/api/v1/items/?limit=100', { headers: auth });
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const packed = await raw(t.url, '/api/v1/items/?limit=100', { headers: { ...auth, ...BROWSER } });
    expect(packed.status).toBe(200);
    expect(['br', 'gzip']).toContain(packed.headers['content-encoding']);
    expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
    expect(packed.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(decoded(packed))).toEqual(JSON.parse(plain.body.toString()));
  });

  it('goes compressed over GraphQL', async () => {
    const query = '{ allItems(perPage: 100) { id title description } }';
    const answer = await raw(t.url, '/graphql', {
      method: 'POST',
      headers: { ...BROWSER, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(answer.status).toBe(200);
    expect(['br', 'gzip']).toContain(answer.headers['content-encoding']);
    const json = JSON.parse(decoded(answer));
    expect(json.errors).toBeUndefined();
    expect(json.data.allItems).toHaveLength(12);
  });

  it("goes compressed for the admin's page, the OpenAPI document and /docs' scripts", async () => {
    for (const path of ['/', '/clientes', '/api/v1/openapi.json']) {
      const answer = await raw(t.url, path, { headers: { ...BROWSER, Accept: 'text/html,*/*' } });
      expect(answer.status, path).toBe(200);
      expect(['br', 'gzip'], path).toContain(answer.headers['content-encoding']);
      expect(decoded(answer).length, path).toBeGreaterThan(answer.body.length);
    }
    // /docs' page is a few lines, under the threshold; its script is not.
    const docs = (await raw(t.url, '/docs', { headers: BROWSER })).body.toString();
    const script = /src="([^"]+\.js)"/.exec(docs)![1];
    const bundle = await raw(t.url, new URL(script, `${t.url}/docs/`).pathname, { headers: BROWSER });
    expect(bundle.status).toBe(200);
    expect(['br', 'gzip']).toContain(bundle.headers['content-encoding']);
  });

  it('is sent as it is when short, or to a client that asks for no encoding', async () => {
    const short = await raw(t.url, '/api/v1/users/me', { headers: { ...BROWSER, Authorization: `Bearer ${token}` } });
    expect(short.status).toBe(200);
    expect(short.body.length).toBeLessThan(1024);
    expect(short.headers['content-encoding']).toBeUndefined();
    const identity = await raw(t.url, '/api/v1/openapi.json', { headers: { 'Accept-Encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(identity.body.toString()).openapi).toMatch(/^3\./);
  });
});
