import { type KeyRule, type QueryKeys, type QueryResource, queryKeys } from './keys.js';
import { parseQuery, QuerySyntaxError, type QueryTerm } from './parse.js';

/**
 * A query as list parameters: the same keys, with the same parsed values, as the list's query
 * schema makes of the parameters (`status: ['open']`, `-label`… as `labelsNone`, `dueBefore:
 * '2026-12-31'`), so a query and the parameters it stands for are one filter, one cursor.
 */
export type QueryFilters = Record<string, unknown>;

/** What a query's terms need from outside the grammar. */
export interface QueryContext {
  /** The token's user (`assignee:me`); null when there is none (the operator). */
  me: string | null;
  /** Today (`YYYY-MM-DD`, UTC): `is:overdue` is due before it. */
  today: string;
  /** The id of the project with this key (`project:APO`), or undefined. */
  projectIdOf(key: string): string | undefined;
}

const lowerBounds = new Set(['createdAfter', 'updatedSince', 'dueAfter', 'estimateMin']);
const upperBounds = new Set(['createdBefore', 'updatedBefore', 'dueBefore', 'estimateMax']);
/** Lists whose terms add up (every label of each, none of each). */
const unions = new Set(['labels', 'labelsNone']);

/** Thrown when two filters cannot both hold as one filter of the list (named by `field`). */
export class UnmergeableFilters extends Error {
  constructor(readonly field: string) {
    super(`${field} is given twice and the list takes one`);
  }
}

/**
 * Both filters at once (AND), as one: lists of any-of intersect, lists of none-of and label
 * lists join, bounds tighten; `archived` and `sort` are taken from `next`. A field that cannot
 * hold two values (the free text, an any-of label list, `blocked` two ways) throws
 * UnmergeableFilters unless both say the same.
 */
export function andFilters(base: QueryFilters, next: QueryFilters): QueryFilters {
  const out: QueryFilters = { ...base };
  for (const [field, value] of Object.entries(next)) {
    const had = out[field];
    if (value === undefined) continue;
    if (had === undefined || field === 'archived' || field === 'sort') out[field] = value;
    else if (lowerBounds.has(field)) out[field] = (had as never) > (value as never) ? had : value;
    else if (upperBounds.has(field)) out[field] = (had as never) < (value as never) ? had : value;
    else if (unions.has(field) || field.startsWith('-')) {
      out[field] = [...new Set([...(had as string[]), ...(value as string[])])];
    } else if (Array.isArray(had) && field !== 'labelsAny') {
      out[field] = had.filter((item) => (value as string[]).includes(item));
    } else if (JSON.stringify(had) !== JSON.stringify(value)) throw new UnmergeableFilters(field);
  }
  return out;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A `YYYY-MM-DD` that exists, or undefined. Years up to 9998: a bound is kept as the day after
 * (`<=`, `>`), and the day after 9999-12-31 has no four-digit year to compare as text.
 */
function dayOf(text: string): string | undefined {
  if (!dayPattern.test(text) || text >= '9999') return undefined;
  const ms = Date.parse(`${text}T00:00:00.000Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(text) ? text : undefined;
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/** A bound as the filter takes it: the day, or its first instant. */
const boundOf = (day: string, time: boolean | undefined) => (time ? `${day}T00:00:00.000Z` : day);

const comparison = /^(<=|>=|<|>)?(.*)$/;

/** The inclusive-after / exclusive-before filters a comparison of days stands for. */
function dayFilters(rule: Extract<KeyRule, { kind: 'day' }>, term: QueryTerm): QueryFilters {
  const wrong = () =>
    new QuerySyntaxError(
      `${term.key}: expected a day (YYYY-MM-DD), compared (<, <=, >, >=) or a range (a..b, either end *)`,
      term.raw,
      term.offset,
    );
  const after = (day: string) => ({ [rule.after]: boundOf(day, rule.time) });
  const before = (day: string) => ({ [rule.before]: boundOf(day, rule.time) });
  const range = term.value.split('..');
  if (range.length === 2) {
    const [from, to] = range as [string, string];
    const start = from === '*' ? null : dayOf(from);
    const end = to === '*' ? null : dayOf(to);
    if (start === undefined || end === undefined || (start === null && end === null)) throw wrong();
    return { ...(start ? after(start) : {}), ...(end ? before(nextDay(end)) : {}) };
  }
  const [, op, rest] = comparison.exec(term.value) as RegExpExecArray;
  const day = dayOf(rest as string);
  if (day === undefined) throw wrong();
  switch (op) {
    case '<':
      return before(day);
    case '<=':
      return before(nextDay(day));
    case '>':
      return after(nextDay(day));
    case '>=':
      return after(day);
    default:
      return { ...after(day), ...before(nextDay(day)) };
  }
}

const numberPattern = /^\d+(\.\d+)?$/;

/** The inclusive min / max filters a comparison of numbers stands for. */
function numberFilters(rule: Extract<KeyRule, { kind: 'number' }>, term: QueryTerm): QueryFilters {
  const wrong = () =>
    new QuerySyntaxError(
      `${term.key}: expected a number, compared (<=, >=) or a range (a..b, either end *)`,
      term.raw,
      term.offset,
    );
  // Finite only: 400 digits are Infinity, which no bound can mean.
  const num = (text: string) => {
    const value = numberPattern.test(text) ? Number(text) : Number.NaN;
    return Number.isFinite(value) ? value : undefined;
  };
  const range = term.value.split('..');
  if (range.length === 2) {
    const [from, to] = range as [string, string];
    const min = from === '*' ? null : num(from);
    const max = to === '*' ? null : num(to);
    if (min === undefined || max === undefined || (min === null && max === null)) throw wrong();
    return { ...(min !== null ? { [rule.min]: min } : {}), ...(max !== null ? { [rule.max]: max } : {}) };
  }
  const [, op, rest] = comparison.exec(term.value) as RegExpExecArray;
  const value = num(rest as string);
  if (value === undefined || op === '<' || op === '>') throw wrong();
  if (op === '<=') return { [rule.max]: value };
  if (op === '>=') return { [rule.min]: value };
  return { [rule.min]: value, [rule.max]: value };
}

/** How many values a list filter takes, as a list parameter does. */
const maxListValues = 50;

/** A comma list's distinct items, none empty (at most 50, as a parameter's list). */
function itemsOf(term: QueryTerm): string[] {
  const items = term.value.split(',');
  if (items.some((item) => item === '')) {
    throw new QuerySyntaxError(`${term.key}: a list item is empty`, term.raw, term.offset);
  }
  if (items.length > maxListValues) {
    throw new QuerySyntaxError(`${term.key}: at most ${maxListValues} values`, term.raw, term.offset);
  }
  return [...new Set(items)];
}

const labelPattern = /^[^,\s](?:[^,]{0,62}[^,\s])?$/;

/** The filters one key:value term stands for. */
function termFilters(keys: QueryKeys, rule: KeyRule, term: QueryTerm, context: QueryContext): QueryFilters {
  const fail = (message: string) => new QuerySyntaxError(`${term.key}: ${message}`, term.raw, term.offset);
  switch (rule.kind) {
    case 'enum': {
      const items = itemsOf(term);
      const bad = items.find((item) => !rule.values.includes(item));
      if (bad !== undefined) throw fail(`"${bad}" is not one of ${rule.values.join(', ')}`);
      return { [term.negated ? `-${rule.field}` : rule.field]: items };
    }
    case 'id': {
      const pattern = new RegExp(`^${rule.prefix}_[0-9A-Za-z]{1,64}$`);
      const items = itemsOf(term).map((item) => {
        if (rule.me && item === 'me') {
          if (context.me === null) throw fail('"me" needs a token of a user');
          return context.me;
        }
        if (rule.none && item === 'none') return 'none';
        if (pattern.test(item)) return item;
        if (rule.projectKey && /^[A-Za-z][A-Za-z0-9]{1,9}$/.test(item)) {
          const id = context.projectIdOf(item.toUpperCase());
          if (id === undefined) throw fail(`no project has the key ${item.toUpperCase()}`);
          return id;
        }
        const also = [rule.me ? 'me' : '', rule.none ? 'none' : '', rule.projectKey ? 'a project key' : '']
          .filter(Boolean)
          .join(', ');
        throw fail(`"${item}" is not an id starting with ${rule.prefix}_${also ? ` (nor ${also})` : ''}`);
      });
      return { [term.negated ? `-${rule.field}` : rule.field]: [...new Set(items)] };
    }
    case 'label': {
      const items = itemsOf(term);
      const bad = items.find((item) => !labelPattern.test(item));
      if (bad !== undefined) throw fail(`"${bad}" is not a label (1 to 64 characters, trimmed)`);
      if (term.negated) return { labelsNone: items };
      return items.length === 1 ? { labels: items } : { labelsAny: items };
    }
    case 'day':
      if (term.negated) throw fail('a comparison cannot be negated: compare the other way');
      return dayFilters(rule, term);
    case 'number':
      if (term.negated) throw fail('a comparison cannot be negated: compare the other way');
      return numberFilters(rule, term);
    case 'is': {
      const state = term.value.toLowerCase();
      if (!(rule.states as readonly string[]).includes(state))
        throw fail(`expected one of ${rule.states.join(', ')}`);
      if (state === 'archived') return { archived: term.negated ? 'false' : 'only' };
      if (state === 'blocked') return { blocked: term.negated ? 'false' : 'true' };
      if (term.negated) throw fail('overdue cannot be negated');
      return { dueBefore: context.today, status: [...keys.openStatuses] };
    }
    case 'sort': {
      if (term.negated) throw fail('a sort cannot be negated: use -asc or -desc');
      const [, name, direction] = /^([a-z]+)(?:-(asc|desc))?$/.exec(term.value.toLowerCase()) ?? [];
      // Own keys only: `constructor` is not a sort field, whatever an object inherits.
      const field = name !== undefined && Object.hasOwn(rule.fields, name) ? rule.fields[name] : undefined;
      if (field === undefined) {
        throw fail(`expected one of ${Object.keys(rule.fields).join(', ')}, optionally with -asc or -desc`);
      }
      return { sort: direction === 'asc' ? field : `-${field}` };
    }
  }
}

/**
 * The filters of a query's terms for a resource, ANDed; throws QuerySyntaxError naming the
 * first term that is malformed, unknown to the resource or at odds with an earlier one.
 */
export function queryFilters(
  resource: QueryResource,
  terms: readonly QueryTerm[],
  context: QueryContext,
): QueryFilters {
  const keys = queryKeys[resource];
  let filters: QueryFilters = {};
  const text: string[] = [];
  for (const term of terms) {
    if (term.key === undefined) {
      if (!keys.freeText)
        throw new QuerySyntaxError(`${resource} have no free text search`, term.raw, term.offset);
      if (term.negated) throw new QuerySyntaxError('free text cannot be negated', term.raw, term.offset);
      text.push(term.value);
      continue;
    }
    // Own keys only: `constructor:x` or `__proto__:x` name no key, whatever an object inherits.
    const rule = Object.hasOwn(keys.keys, term.key) ? keys.keys[term.key] : undefined;
    if (rule === undefined) {
      throw new QuerySyntaxError(
        `unknown key "${term.key}": ${resource} take ${Object.keys(keys.keys).join(', ')}`,
        term.raw,
        term.offset,
      );
    }
    try {
      filters = andFilters(filters, termFilters(keys, rule, term, context));
    } catch (error) {
      if (!(error instanceof UnmergeableFilters)) throw error;
      throw new QuerySyntaxError(
        `${term.key}: at odds with an earlier term (${error.field})`,
        term.raw,
        term.offset,
      );
    }
    // Terms that join their lists (labels, exclusions) stay within a parameter's 50 values in all.
    const grown = Object.entries(filters).find(
      ([, value]) => Array.isArray(value) && value.length > maxListValues,
    );
    if (grown !== undefined) {
      throw new QuerySyntaxError(
        `${term.key}: at most ${maxListValues} values in all (${grown[0]})`,
        term.raw,
        term.offset,
      );
    }
  }
  if (text.length > 0) filters.q = text.join(' ');
  return filters;
}

/** Parses a query and makes its filters: `parseQuery` then `queryFilters`. */
export function filtersOfQuery(resource: QueryResource, text: string, context: QueryContext): QueryFilters {
  return queryFilters(resource, parseQuery(text), context);
}
