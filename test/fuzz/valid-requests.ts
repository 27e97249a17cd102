import fc from 'fast-check';
import type { KnownIds } from './json-arbitraries.js';
import type { Operation, Schema } from './operations.js';
import type { FuzzRequest, FuzzTargets } from './request-arbitraries.js';

/**
 * Requests the OpenAPI document says are valid, and only those: every value within its schema
 * (types, enums, bounds, lengths, patterns, formats, required members, no unknown ones), ids of
 * things that exist, the admin's token. What the document cannot know is left out: a `cursor`
 * (only a page's nextCursor is one), a `query` (a text in the search grammar, which JSON Schema
 * cannot state: its own tests fuzz it) and `Last-Event-ID` (only an event's id is one).
 */
export function validRequestsFor(
  op: Operation,
  resolve: (s: Schema) => Schema,
  targets: FuzzTargets,
): fc.Arbitrary<FuzzRequest> {
  const ids = targets.ids;
  const names = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const path = fc
    .tuple(...names.map((name) => fc.constantFrom(...targets.pathValues(op.template, name))))
    .map((values) =>
      names.reduce(
        (p, name, i) => p.replace(`{${name}}`, encodeURIComponent(values[i] as string)),
        op.template,
      ),
    );
  const queryParams = op.parameters.filter(
    (p) => p.in === 'query' && p.name !== 'cursor' && p.name !== 'query',
  );
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        (p.required ? valueFor(p.schema, resolve, ids) : fc.option(valueFor(p.schema, resolve, ids))).map(
          (v) => (v === null ? [] : queryPairs(p.name, v)),
        ),
      ),
    )
    .map((pairs) => pairs.flat());
  const headerParams = op.parameters.filter(
    (p) => p.in === 'header' && p.name.toLowerCase() !== 'last-event-id',
  );
  const headers = fc
    .tuple(
      ...headerParams.map((p) =>
        (p.required ? headerValue(p.name, p.schema) : fc.option(headerValue(p.name, p.schema))).map((v) =>
          v === null ? {} : { [p.name.toLowerCase()]: v },
        ),
      ),
    )
    .map((parts) => Object.assign({}, ...parts) as Record<string, string>);
  const body = op.body
    ? op.bodyRequired
      ? valueFor(op.body, resolve, ids)
      : fc.option(valueFor(op.body, resolve, ids))
    : fc.constant(null);
  return fc
    .tuple(
      path,
      query.map(orderedRange),
      headers,
      body.map((b) =>
        op.method.toUpperCase() === 'POST' && op.template.endsWith('/comments')
          ? oneTarget(b, ids)
          : op.template.startsWith('/api/v1/views')
            ? viewQueryInGrammar(b)
            : op.template.endsWith('/replay')
              ? orderedReplay(b)
              : b,
      ),
    )
    .map(([p, q, h, b]) => ({
      method: op.method,
      path: q.length > 0 ? `${p}?${q.join('&')}` : p,
      headers: {
        ...(op.open ? {} : { authorization: `Bearer ${targets.tokens.admin}` }),
        ...h,
        ...(b !== null ? { 'content-type': 'application/json' } : {}),
      },
      body: b !== null ? Buffer.from(JSON.stringify(b)) : null,
    }));
}

/**
 * A comment names exactly one of issueId, outcomeId and decisionId (POST /comments): a rule
 * between members, which the schema's description states. Generated with the first one present.
 */
function oneTarget(body: unknown, ids: KnownIds): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const fields = ['issueId', 'outcomeId', 'decisionId'];
  const record = body as Record<string, unknown>;
  const kept = fields.find((field) => record[field] !== undefined);
  const rest = Object.entries(record).filter(([name]) => !fields.includes(name));
  return Object.fromEntries(
    kept === undefined ? [['issueId', ids.iss?.[0]], ...rest] : [[kept, record[kept]], ...rest],
  );
}

/**
 * A saved view's `query` is a text in the search grammar, checked against its resource's list
 * (POST and PATCH /views), which JSON Schema cannot state: a generated one is swapped for a query
 * every resource's list takes.
 */
function viewQueryInGrammar(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  return 'query' in record ? { ...record, query: 'updated:>=2026-01-01' } : record;
}

/**
 * A replay's `until` below its `after` is refused (POST /webhooks/{id}/replay): a rule between two
 * members, which the field's description states. Generated in order.
 */
function orderedReplay(body: unknown): unknown {
  const record = body as { after?: unknown; until?: unknown } | null;
  if (typeof record?.after !== 'number' || typeof record.until !== 'number' || record.until >= record.after)
    return body;
  return { ...record, after: record.until, until: record.after };
}

/**
 * `from` after `to` (GET /time-entries) is refused: a rule between two parameters, which JSON
 * Schema cannot state and the parameters' descriptions do. Generated in order.
 */
function orderedRange(pairs: string[]): string[] {
  const at = (name: string) => pairs.findIndex((p) => p.startsWith(`${name}=`));
  const from = at('from');
  const to = at('to');
  if (from === -1 || to === -1 || (pairs[from] as string).slice(5) <= (pairs[to] as string).slice(3))
    return pairs;
  const swapped = [...pairs];
  swapped[from] = `from=${(pairs[to] as string).slice(3)}`;
  swapped[to] = `to=${(pairs[from] as string).slice(5)}`;
  return swapped;
}

/** A query parameter's value as the document's style (form, explode) writes it. */
function queryPairs(name: string, value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(String(v))}`);
}

function headerValue(name: string, schema: Schema): fc.Arbitrary<string> {
  const lower = name.toLowerCase();
  if (lower === 'idempotency-key') return fc.uuid();
  if (lower === 'if-match') return fc.constant('*');
  if (lower === 'if-none-match') return fc.constant('"1"');
  return fc
    .string({ minLength: 1, maxLength: 10, unit: fc.constantFrom(...'abcdefgh0123456789') })
    .filter((s) => typeof schema.pattern !== 'string' || new RegExp(schema.pattern).test(s));
}

/** A value the schema accepts. */
export function valueFor(
  raw: Schema,
  resolve: (s: Schema) => Schema,
  ids: KnownIds,
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) {
    const usable = variants.filter((v) => resolve(v).type !== 'null' || variants.length === 1);
    return fc.oneof(...(usable.length > 0 ? usable : variants).map((v) => valueFor(v, resolve, ids, depth)));
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t) => t !== 'null') ?? schema.type[0])
    : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema, ids);
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 1_000;
      return fc.integer({ min, max: Math.min(max, min + 1_000_000) });
    }
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 1_000;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.max(
        minLength,
        Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, 3),
      );
      const items = valueFor((schema.items ?? {}) as Schema, resolve, ids, depth + 1);
      return schema.uniqueItems === true
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const members = Object.entries(properties)
        .filter(([, property]) => resolve(property).readOnly !== true)
        .map(([name, property]) =>
          (required.has(name)
            ? valueFor(property, resolve, ids, depth + 1)
            : fc.option(valueFor(property, resolve, ids, depth + 1), { nil: undefined })
          ).map((v) => [name, v] as const),
        );
      return fc
        .tuple(...members)
        .map((pairs) => Object.fromEntries(pairs.filter(([name, v]) => v !== null || required.has(name))));
    }
    default:
      return fc.constant('x');
  }
}

function stringOf(schema: Schema, ids: KnownIds): fc.Arbitrary<string> {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : null;
  const prefix = pattern?.match(/^\^([a-z]+)_/)?.[1];
  if (prefix) return fc.constantFrom(...(ids[prefix] ?? [`${prefix}_missing`]));
  if (schema.format === 'date') return dateString;
  if (schema.format === 'date-time') return dateString.map((d) => `${d}T10:00:00.000Z`);
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'uri')
    return fc.stringMatching(/^[a-z]{1,10}$/).map((p) => `https://example.com/${p}`);
  if (schema.format === 'email') return fc.stringMatching(/^[a-z]{1,8}$/).map((u) => `${u}@fuzz.test`);
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.max(
    minLength,
    Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 40, 40),
  );
  if (pattern) {
    // Strings the pattern makes, cut to the length bounds when too long (kept only if they
    // still match); a pattern whose strings never fit falls back to a plain one that matches.
    const matches = new RegExp(pattern);
    const most = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
    const fits = (made: string) => made.length >= minLength && made.length <= most && matches.test(made);
    return fc
      .stringMatching(matches)
      .map((made) => (made.length > most ? made.slice(0, most) : made))
      .map((made) => (fits(made) ? made : fallback(matches, minLength)));
  }
  return fc.string({ minLength, maxLength });
}

/** A plain string that matches: enough of `x` to reach the minimum length, checked. */
function fallback(matches: RegExp, minLength: number): string {
  const plain = 'x'.repeat(Math.max(1, minLength));
  if (!matches.test(plain)) throw new Error(`no string of length ${minLength} matches ${matches}`);
  return plain;
}

const dateString = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
