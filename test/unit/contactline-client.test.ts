// The typed client (src/client/): the key as a bearer token on every request, the document's
// absolute paths under the base URL (a trailing slash or a path prefix kept right), and the
// answer typed and parsed as the document says.
import { describe, expect, it } from 'vitest';
import { createContactlineClient } from '../../src/client/index.js';

function recordingFetch(answer: () => Response) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return answer();
  };
  return { fetch, requests };
}

describe('createContactlineClient', () => {
  it('sends the key as a bearer token to the base URL, a trailing slash and a prefix kept right', async () => {
    const { fetch, requests } = recordingFetch(() => Response.json({ data: [], nextToken: null }));
    const client = createContactlineClient({ baseUrl: 'http://127.0.0.1:3000/prefix/', apiKey: 'svc_pk_test', fetch });
    const { data, error } = await client.GET('/api/v1/workflows', { params: { query: { limit: 10 } } });
    expect(error).toBeUndefined();
    expect(data).toEqual({ data: [], nextToken: null });
    expect(requests.map((r) => [r.method, r.url, r.headers.get('authorization')])).toEqual([
      ['GET', 'http://127.0.0.1:3000/prefix/api/v1/workflows?limit=10', 'Bearer svc_pk_test'],
    ]);
  });

  it('returns an error answer as `error`, with the response for its status and headers', async () => {
    const body = { error: 'Too Many Requests', message: 'slow down', code: 'rate_limited', requestId: 'r1' };
    const { fetch } = recordingFetch(() => Response.json(body, { status: 429, headers: { 'retry-after': '3' } }));
    const client = createContactlineClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'svc_pk_test', fetch });
    const { data, error, response } = await client.POST('/api/v1/contacts/bulk', {
      body: { contacts: [{ sourceKind: 'csv', externalId: null, phone: '+14155550100' }] },
    });
    expect(data).toBeUndefined();
    expect(error).toEqual(body);
    expect([response.status, response.headers.get('retry-after')]).toEqual([429, '3']);
  });
});
