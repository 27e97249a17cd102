import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../src/core/pipeline/request.js';

describe('parseRequest', () => {
  it('takes headers by lower-case name, one string each, whatever case and shape they came in', () => {
    const parsed = parseRequest({
      method: 'post',
      path: '/api/v1/issues',
      headers: {
        Authorization: 'Bearer cn_x',
        'X-Forwarded-For': ['10.0.0.1', '10.0.0.2'],
        'if-match': '"2"',
        'X-Absent': undefined,
      },
    });
    expect(parsed.method).toBe('POST');
    expect(parsed.headers).toEqual({
      authorization: 'Bearer cn_x',
      'x-forwarded-for': '10.0.0.1, 10.0.0.2',
      'if-match': '"2"',
    });
  });

  it('keeps headers that already are lower-case strings (as node:http gives them) as they are', () => {
    const headers = { host: 'example.com', authorization: 'Bearer cn_x' };
    const parsed = parseRequest({ method: 'GET', path: '/api/v1/issues?limit=5', headers });
    expect(parsed.headers).toEqual(headers);
    expect(parsed).toMatchObject({ path: '/api/v1/issues', url: '/api/v1/issues?limit=5', body: null });
  });

  it('merges query parameters given apart into the URL, after those of the path', () => {
    const parsed = parseRequest({
      method: 'GET',
      path: '/api/v1/issues?status=open',
      query: { limit: '5', labels: ['a', 'b'], skipped: undefined },
      headers: {},
    });
    expect(parsed.url).toBe('/api/v1/issues?status=open&limit=5&labels=a&labels=b');
    expect(parsed.path).toBe('/api/v1/issues');
  });
});
