import fc from 'fast-check';
import { hostileJson, jsonFor, type KnownIds, stringValue } from './json-arbitraries.js';
import type { Operation, Parameter, Schema } from './operations.js';

/** One generated request, as it goes on the wire. */
export interface FuzzRequest {
  method: string;
  /** Path and query string, already encoded (junk escapes included on purpose). */
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** The tokens a request may carry: one of each scope and role the server was seeded with. */
export interface FuzzTokens {
  /** Admin, read_write: most requests use it, so they get past authorization. */
  admin: string;
  read: string;
  member: string;
  viewer: string;
}

export interface FuzzTargets {
  tokens: FuzzTokens;
  /** Ids of things on the server, by prefix, for path parameters and id fields. */
  ids: KnownIds;
  /** Path-parameter values per operation template and parameter name (real ids that fit there). */
  pathValues: (template: string, name: string) => readonly string[];
}

/** Path segments that no id looks like: malformed, overlong or traversing escapes. */
const junkSegments = [
  '%',
  '%zz',
  '%00',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%E0%A4%A',
  '..',
  '%2E%2E',
  '%2F',
  '__proto__',
  'constructor',
  '%5F%5Fproto%5F%5F',
  'x'.repeat(5000),
  'APO-99999999999999999999',
  'APO-0',
  'APO--1',
  'APO-1e309',
  'apo-1',
  '%41PO-1',
];

const hostileQueryValues = [
  '',
  '%zz',
  '%00',
  '%ED%A0%80',
  '1e309',
  '-0',
  '-1',
  '99999999999999999999',
  '9007199254740993',
  '0x10',
  '__proto__',
  'x'.repeat(9000),
  '%E2%80%AE',
  '[]',
  'null',
];

const hostileHeaderValues = [
  '',
  '*',
  '"1"',
  'W/"1"',
  '"1", "2"',
  '"',
  '""',
  '"-1"',
  '"1e309"',
  '"99999999999999999999"',
  '"0"',
  '"__proto__"',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(6000),
  '\u00ff\u00fe',
  '-1',
  '1e309',
  '0',
  '99999999999999999999',
  'sig_1',
];

/** Bytes that are not UTF-8: overlong, lone continuation, surrogate, truncated. */
const invalidUtf8 = [
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

/** Query-string value for a schema: what it asks for, written as a client would. */
function queryValue(schema: Schema, resolve: (s: Schema) => Schema, ids: KnownIds): fc.Arbitrary<string> {
  const s = resolve(schema);
  const variants = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map((v) => queryValue(v, resolve, ids)));
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]).map(String));
  if (s.type === 'integer') {
    const min = typeof s.minimum === 'number' ? s.minimum : 0;
    const max = typeof s.maximum === 'number' ? s.maximum : 1000;
    return fc
      .oneof(fc.integer({ min, max: Math.min(max, min + 500) }), fc.constantFrom(min, max))
      .map(String);
  }
  if (s.type === 'array') return queryValue((s.items ?? {}) as Schema, resolve, ids);
  return stringValue(s, ids).map(encodeURIComponent);
}

function queryString(op: Operation, resolve: (s: Schema) => Schema, ids: KnownIds): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const pairs = params.map((p) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant<string[]>([]) },
      { weight: 4, arbitrary: queryValue(p.schema, resolve, ids).map((v) => [`${p.name}=${v}`]) },
      { weight: 1, arbitrary: fc.constantFrom(...hostileQueryValues).map((v) => [`${p.name}=${v}`]) },
      // The same parameter twice (HPP), the two values possibly disagreeing.
      {
        weight: 1,
        arbitrary: fc
          .tuple(queryValue(p.schema, resolve, ids), fc.constantFrom(...hostileQueryValues))
          .map(([a, b]) => [`${p.name}=${a}`, `${p.name}=${b}`]),
      },
      { weight: 1, arbitrary: fc.constantFrom([`${p.name}[]=1`], [`${p.name}`], [`${p.name}[a]=1`]) },
    ),
  );
  const extra = fc.option(
    fc.constantFrom('__proto__=1', 'constructor=x', 'unknown=1', '=', '&&', 'a=%zz', 'x=1&x=2'),
    { freq: 5 },
  );
  return fc.tuple(fc.tuple(...pairs), extra).map(([chosen, more]) => {
    const all = chosen.flat();
    if (more !== null) all.push(more);
    return all.length > 0 ? `?${all.join('&')}` : '';
  });
}

function pathArbitrary(op: Operation, targets: FuzzTargets): fc.Arbitrary<string> {
  const names = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const segments = names.map((name) => {
    const real = targets.pathValues(op.template, name);
    return fc.oneof(
      ...(real.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...real) }] : []),
      { weight: 1, arbitrary: fc.constantFrom(...junkSegments) },
      // Never empty: `/issues/` is the collection, another operation.
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
    );
  });
  return fc.tuple(...segments).map((values) => {
    let path = op.template;
    names.forEach((name, i) => {
      path = path.replace(`{${name}}`, values[i] as string);
    });
    return path;
  });
}

function headerValue(p: Parameter): fc.Arbitrary<string> {
  const name = p.name.toLowerCase();
  const valid =
    name === 'idempotency-key'
      ? fc.uuid()
      : fc.oneof(
          fc.integer({ min: 0, max: 6 }).map((n) => `"${n}"`),
          fc.constant('*'),
        );
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 1, arbitrary: fc.constantFrom(...hostileHeaderValues) },
  );
}

function headersArbitrary(op: Operation, tokens: FuzzTokens): fc.Arbitrary<Record<string, string>> {
  const documented = op.parameters
    .filter((p) => p.in === 'header')
    .map((p) =>
      fc
        .option(headerValue(p), { freq: p.required ? 12 : 2 })
        .map((v) => (v === null ? {} : { [p.name.toLowerCase()]: v })),
    );
  const authorization = fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${tokens.admin}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(tokens.read, tokens.member, tokens.viewer).map((t) => `Bearer ${t}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'Basic Zm9vOmJhcg==',
        `Bearer ${'x'.repeat(5000)}`,
        'Bearer ot_\u00ff',
        `bearer ${tokens.admin}`,
      ),
    },
  );
  const extras = fc.record(
    {
      'last-event-id': fc.constantFrom(...hostileHeaderValues, '1', '2', 'sig_x'),
      accept: fc.constantFrom('text/event-stream', 'application/json', '*/*', 'text/html', 'application/xml'),
      'x-request-id': fc.constantFrom('abc', 'x'.repeat(200), 'a b', '\u00ff', '../x', ''),
      'if-none-match': fc.constantFrom(...hostileHeaderValues),
    },
    { requiredKeys: [] },
  );
  return fc
    .tuple(fc.option(authorization, { freq: 20 }), fc.tuple(...documented), extras)
    .map(([auth, parts, more]) => {
      const headers: Record<string, string> = Object.assign({}, ...parts, more);
      if (auth !== null) headers.authorization = auth;
      return headers;
    });
}

const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/jsonx',
];

function bodyArbitrary(
  op: Operation,
  resolve: (s: Schema) => Schema,
  ids: KnownIds,
): fc.Arbitrary<{ body: Buffer | null; contentType: string | null }> {
  const text = op.body ? jsonFor(op.body, resolve, ids) : hostileJson;
  const bytes = fc.oneof(
    { weight: 8, arbitrary: text.map((t) => Buffer.from(t)) },
    // Invalid UTF-8 spliced into otherwise fitting JSON, inside a string or between tokens.
    {
      weight: 1,
      arbitrary: fc.tuple(text, fc.constantFrom(...invalidUtf8), fc.nat()).map(([t, junk, at]) => {
        const b = Buffer.from(t);
        const cut = b.length === 0 ? 0 : at % b.length;
        return Buffer.concat([b.subarray(0, cut), Buffer.from(junk), b.subarray(cut)]);
      }),
    },
    // Truncated, empty, or not JSON at all.
    { weight: 1, arbitrary: text.map((t) => Buffer.from(t.slice(0, Math.floor(t.length / 2)))) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', ' ', 'a=1&b=2', '\u0000', '{', '"\\', '\ufeff{}')
        .map((t) => Buffer.from(t)),
    },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 2, arbitrary: fc.constantFrom(...contentTypes) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  // Operations without a body are sent one now and then: it must be refused, not choke anything.
  const present = op.body
    ? fc.constant(true)
    : fc.double({ min: 0, max: 1, noNaN: true }).map((p) => p < 0.25);
  return fc
    .tuple(present, bytes, contentType)
    .map(([sent, body, type]) => (sent ? { body, contentType: type } : { body: null, contentType: null }));
}

/**
 * Well-formed requests for one operation: the admin's token, real ids in the path, documented
 * header and query values, a body the schema allows. They get past validation into the handlers
 * (creates, conditional updates, deletes), where hostile requests mostly stop at a 400.
 */
function wellFormedRequests(
  op: Operation,
  resolve: (s: Schema) => Schema,
  targets: FuzzTargets,
): fc.Arbitrary<FuzzRequest> {
  const names = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const path = fc
    .tuple(
      ...names.map((name) => {
        const real = targets.pathValues(op.template, name);
        return real.length > 0 ? fc.constantFrom(...real) : fc.constant('none');
      }),
    )
    .map((values) => names.reduce((p, name, i) => p.replace(`{${name}}`, values[i] as string), op.template));
  const query = fc
    .tuple(
      ...op.parameters
        .filter((p) => p.in === 'query')
        .map((p) => fc.option(queryValue(p.schema, resolve, targets.ids).map((v) => `${p.name}=${v}`))),
    )
    .map((pairs) => {
      const kept = pairs.filter((p): p is string => p !== null);
      return kept.length > 0 ? `?${kept.join('&')}` : '';
    });
  const headers = fc
    .tuple(
      ...op.parameters
        .filter((p) => p.in === 'header')
        .map((p) => {
          const name = p.name.toLowerCase();
          const valid =
            name === 'idempotency-key'
              ? fc.uuid()
              : fc.oneof(
                  fc.integer({ min: 1, max: 4 }).map((n) => `"${n}"`),
                  fc.constant('*'),
                );
          return fc
            .option(valid, { freq: p.required ? 1000 : 2 })
            .map((v) => (v === null ? {} : { [name]: v }));
        }),
    )
    .map(
      (parts): Record<string, string> =>
        Object.assign({ authorization: `Bearer ${targets.tokens.admin}` }, ...parts),
    );
  const body = op.body
    ? jsonFor(op.body, resolve, targets.ids, 0).map((t) => Buffer.from(t))
    : fc.constant(null);
  return fc.record({ path, query, headers, body }).map(({ path, query, headers, body }) => ({
    method: op.method,
    path: `${path}${query}`,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    body,
  }));
}

/** Requests for one operation: documented shapes and hostile values, every part at once. */
function hostileRequests(
  op: Operation,
  resolve: (s: Schema) => Schema,
  targets: FuzzTargets,
): fc.Arbitrary<FuzzRequest> {
  const method = op.method === 'GET' ? fc.constantFrom('GET', 'GET', 'GET', 'HEAD') : fc.constant(op.method);
  return fc
    .record({
      method,
      path: pathArbitrary(op, targets),
      query: queryString(op, resolve, targets.ids),
      headers: headersArbitrary(op, targets.tokens),
      body: bodyArbitrary(op, resolve, targets.ids),
    })
    .map(({ method, path, query, headers, body }) => {
      const all = { ...headers };
      if (body.contentType !== null) all['content-type'] = body.contentType;
      return { method, path: `${path}${query}`, headers: all, body: body.body };
    });
}

/** Requests for one operation: a third well-formed, the rest hostile in any part. */
export function requestsFor(
  op: Operation,
  resolve: (s: Schema) => Schema,
  targets: FuzzTargets,
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 1, arbitrary: wellFormedRequests(op, resolve, targets) },
    { weight: 2, arbitrary: hostileRequests(op, resolve, targets) },
  );
}
