import fc from 'fast-check';
import type { Schema } from './operations.js';

/**
 * JSON text for a schema of the document, as fast-check arbitraries of strings, so hostile values
 * that JSON.stringify cannot write (`1e309`, `-0`, a `__proto__` member, lone surrogates) can sit
 * anywhere a value can.
 */

/** Ids the server holds, by their prefix (`prj`, `out`, `iss`, …), so generated ids sometimes hit. */
export type KnownIds = Readonly<Record<string, readonly string[]>>;

/** Values no schema asks for, each written as JSON text. */
export const hostileJsonValues: readonly string[] = [
  '1e309',
  '-1e309',
  '-0',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9007199254740993',
  '1.5',
  '1e-400',
  'null',
  'true',
  '[]',
  '{}',
  '""',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"\\udc00x\\ud800"',
  '"\\uffff\\ufffe"',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '"__proto__"',
  '"constructor"',
  '"toString"',
  '"hasOwnProperty"',
  '"../../etc/passwd"',
  '"\'; DROP TABLE issues; --"',
  '"%s%n%x"',
  '"\\u202e\\u200b\\ufeff"',
  `${'['.repeat(70)}0${']'.repeat(70)}`,
  `${'{"a":'.repeat(70)}0${'}'.repeat(70)}`,
];

/** A string of `size` characters, cheap to build (1 MB strings are among the hostile values). */
const bigString = (size: number) => JSON.stringify('x'.repeat(size));

/** Hostile JSON values, the huge strings among them built only when drawn. */
export const hostileJson: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...hostileJsonValues) },
  { weight: 1, arbitrary: fc.constantFrom(70_000, 1024 * 1024, 1024 * 1024 + 10).map(bigString) },
);

/** Hostile member names, mixed into objects. */
const hostileKeys = ['__proto__', 'constructor', 'prototype', 'id', 'version', '', '\u0000', 'toString'];

interface Context {
  resolve: (schema: Schema) => Schema;
  ids: KnownIds;
  /** Chance (0..1) of replacing a value with a hostile one, drawn per value. */
  hostility: number;
  depth: number;
}

/** JSON text for `schema`, mostly valid, sometimes hostile anywhere inside. */
export function jsonFor(
  schema: Schema,
  resolve: (schema: Schema) => Schema,
  ids: KnownIds,
  hostility = 0.15,
): fc.Arbitrary<string> {
  return valueText(schema, { resolve, ids, hostility, depth: 0 });
}

function valueText(raw: Schema, ctx: Context): fc.Arbitrary<string> {
  const valid = validText(ctx.resolve(raw), ctx);
  if (ctx.hostility <= 0) return valid;
  return fc
    .double({ min: 0, max: 1, noNaN: true })
    .chain((roll) => (roll < ctx.hostility ? hostileJson : valid));
}

function validText(schema: Schema, ctx: Context): fc.Arbitrary<string> {
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map((v) => valueText(v, ctx)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum.map((v) => JSON.stringify(v)));
  if ('const' in schema) return fc.constant(JSON.stringify(schema.const));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringValue(schema, ctx.ids).map((s) => JSON.stringify(s));
    case 'integer':
      return integerValue(schema).map(String);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map(String);
    case 'boolean':
      return fc.boolean().map(String);
    case 'null':
      return fc.constant('null');
    case 'array':
      return arrayText(schema, ctx);
    case 'object':
      return objectText(schema, ctx);
    default:
      return fc.constantFrom('null', '"x"', '1', '{}');
  }
}

function integerValue(schema: Schema): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  return fc.oneof(
    fc.integer({ min, max: Math.min(max, min + 1000) }),
    fc.constantFrom(min, max, min - 1, max + 1),
  );
}

/** A string for a string schema: a known id for id patterns, a date for dates, else one matching. */
export function stringValue(schema: Schema, ids: KnownIds): fc.Arbitrary<string> {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : null;
  const prefix = pattern?.match(/^\^([a-z]+)_/)?.[1];
  if (prefix) {
    const known = ids[prefix] ?? [];
    const made = fc.stringMatching(/^[0-9A-Za-z]{1,24}$/).map((tail) => `${prefix}_${tail}`);
    return known.length > 0 ? fc.oneof(fc.constantFrom(...known), made) : made;
  }
  if (schema.format === 'date') return dateString;
  if (schema.format === 'date-time') return dateString.map((d) => `${d}T10:00:00.000Z`);
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.format === 'email') return fc.stringMatching(/^[a-z]{1,8}$/).map((u) => `${u}@fuzz.test`);
  if (pattern) {
    try {
      return fc.stringMatching(new RegExp(pattern));
    } catch {
      // A pattern fast-check cannot generate from: plain strings instead.
    }
  }
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 40, 40);
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength: Math.max(minLength, 20) }) },
    { weight: 1, arbitrary: fc.constantFrom('https://example.com/hook', 'https://10.0.0.1/x', 'http://x') },
  );
}

const dateString = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

function arrayText(schema: Schema, ctx: Context): fc.Arbitrary<string> {
  const items = (schema.items ?? {}) as Schema;
  const maxItems = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems + 1 : 5, 6);
  const inner = { ...ctx, depth: ctx.depth + 1 };
  return fc.array(valueText(items, inner), { maxLength: maxItems }).map((values) => `[${values.join(',')}]`);
}

function objectText(schema: Schema, ctx: Context): fc.Arbitrary<string> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const inner = { ...ctx, depth: ctx.depth + 1 };
  const members = Object.entries(properties).map(([name, property]) => {
    // A required member is left out now and then, an optional one often.
    const keep = fc.double({ min: 0, max: 1, noNaN: true }).map((p) => p < (required.has(name) ? 0.95 : 0.5));
    return fc
      .tuple(keep, valueText(property, inner))
      .map(([kept, text]) => (kept ? `${JSON.stringify(name)}:${text}` : null));
  });
  const extra =
    ctx.hostility > 0
      ? fc.option(
          fc.tuple(fc.constantFrom(...hostileKeys), hostileJson).map(([k, v]) => `${JSON.stringify(k)}:${v}`),
          { freq: 6 },
        )
      : fc.constant(null);
  return fc.tuple(fc.tuple(...members), extra, fc.boolean()).map(([parts, hostile, duplicate]) => {
    const kept = parts.filter((p): p is string => p !== null);
    if (hostile !== null) kept.push(hostile);
    // A member written twice: JSON.parse keeps the last, a careless reader the first.
    if (duplicate && kept.length > 0 && ctx.hostility > 0) kept.push(kept[0] as string);
    return `{${kept.join(',')}}`;
  });
}
