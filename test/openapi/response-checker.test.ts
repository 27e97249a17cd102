import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, startServer, type TestServer } from '../http/harness.js';
import { type CheckedResponse, createResponseChecker } from './response-validator.js';

const check = createResponseChecker();

/** A copy of a response with another status, headers or body. */
function altered(
  res: CheckedResponse,
  change: { status?: number; body?: unknown; drop?: string[]; set?: Record<string, string> },
): CheckedResponse {
  const headers = new Headers(res.headers);
  for (const name of change.drop ?? []) headers.delete(name);
  for (const [name, value] of Object.entries(change.set ?? {})) headers.set(name, value);
  return {
    status: change.status ?? res.status,
    headers,
    text: change.body === undefined ? res.text : JSON.stringify(change.body),
  };
}

describe('the response checker of the HTTP suites', () => {
  let s: TestServer;
  let created: CheckedResponse & { json: { id: string } };
  beforeAll(async () => {
    s = await startServer('node');
    created = await s.api('POST', '/api/v1/issues', {
      token: s.tokens.admin,
      headers: { 'Idempotency-Key': newKey() },
      body: { projectId: s.ws.projectId, title: 'Checked' },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it('passes a documented create answer', () => {
    expect(created.status).toBe(201);
    expect(check('POST', '/api/v1/issues', created)).toEqual([]);
  });

  it('refuses a body with a field the document does not list', () => {
    const body = { ...JSON.parse(created.text), secretField: 1 };
    const problems = check('POST', '/api/v1/issues', altered(created, { body }));
    expect(problems.join()).toMatch(/additional properties.*secretField/);
  });

  it('refuses a body missing a required field or with a wrong type', () => {
    const { key: _key, ...withoutKey } = JSON.parse(created.text);
    expect(check('POST', '/api/v1/issues', altered(created, { body: withoutKey })).join()).toMatch(
      /must have required property 'key'/,
    );
    const wrongType = { ...JSON.parse(created.text), number: '1' };
    expect(check('POST', '/api/v1/issues', altered(created, { body: wrongType }))).not.toEqual([]);
  });

  it('refuses a status the operation does not document', () => {
    expect(check('POST', '/api/v1/issues', altered(created, { status: 418 })).join()).toMatch(
      /status 418 is not documented/,
    );
    expect(check('GET', '/api/v1/issues', altered(created, { status: 428 }))).not.toEqual([]);
  });

  it('refuses a success without a header the document requires', async () => {
    const read = await s.api('GET', `/api/v1/issues/${created.json.id}`, { token: s.tokens.admin });
    expect(check('GET', `/api/v1/issues/${created.json.id}`, read)).toEqual([]);
    expect(
      check('GET', `/api/v1/issues/${created.json.id}`, altered(read, { drop: ['etag'] })).join(),
    ).toMatch(/required header ETag is missing/);
    expect(
      check('GET', `/api/v1/issues/${created.json.id}`, altered(read, { set: { etag: 'W/"1"' } })).join(),
    ).toMatch(/header ETag/);
  });

  it('refuses a problem with an undocumented member or error code', async () => {
    const missing = await s.api('GET', '/api/v1/issues/iss_nothing', { token: s.tokens.admin });
    expect(missing.status).toBe(404);
    expect(check('GET', '/api/v1/issues/iss_nothing', missing)).toEqual([]);
    const extra = { ...JSON.parse(missing.text), stack: 'at x.ts:1' };
    expect(check('GET', '/api/v1/issues/iss_nothing', altered(missing, { body: extra }))).not.toEqual([]);
    const code = { ...JSON.parse(missing.text), error: 'oops' };
    expect(check('GET', '/api/v1/issues/iss_nothing', altered(missing, { body: code }))).not.toEqual([]);
  });

  it('accepts routing problems on paths and methods the document lacks, and nothing else there', async () => {
    const unknown = await s.api('GET', '/api/v1/nothing-here', { token: s.tokens.admin });
    expect(unknown.status).toBe(404);
    expect(check('GET', '/api/v1/nothing-here', altered(unknown, { status: 200, body: {} }))).not.toEqual([]);
    const notAllowed = await s.api('DELETE', `/api/v1/issues/${created.json.id}`, { token: s.tokens.admin });
    expect(notAllowed.status).toBe(405);
    expect(
      check('DELETE', `/api/v1/issues/${created.json.id}`, altered(notAllowed, { drop: ['allow'] })).join(),
    ).toMatch(/405 without an Allow header/);
  });

  it('leaves pages outside the API alone', () => {
    const page = { status: 200, headers: new Headers({ 'content-type': 'text/html' }), text: '<p>hi</p>' };
    expect(check('GET', '/acme/admin/api-tokens', page)).toEqual([]);
  });
});
