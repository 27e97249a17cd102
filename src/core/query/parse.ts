/**
 * The query language's grammar, after GitHub's search syntax: terms separated by white space,
 * each `key:value`, `-key:value` (negated), `"quoted text"` or a bare word (both free text). A
 * value may be quoted (`label:"needs review"`). Pure: no storage, no clock.
 */

/** One term of a query, where it stands. */
export interface QueryTerm {
  /** The key, lower-cased; undefined for free text. */
  key: string | undefined;
  /** The value (unquoted), or the free text. */
  value: string;
  /** Written with a leading `-`. */
  negated: boolean;
  /** The term as written. */
  raw: string;
  /** Where it begins in the query (UTF-16 code units from 0). */
  offset: number;
}

/** A term the grammar or a key's rules refuse: what is wrong, and where. */
export class QuerySyntaxError extends Error {
  constructor(
    message: string,
    readonly term: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'QuerySyntaxError';
  }
}

/** The longest query taken: a saved view's query fits many times over. */
export const maxQueryLength = 1000;

const space = /\s/;

/** Reads a quoted run starting at `at` (a `"`): its text and the index after the closing quote. */
function quoted(text: string, at: number, termStart: number): { value: string; end: number } {
  const close = text.indexOf('"', at + 1);
  if (close === -1) {
    throw new QuerySyntaxError(
      'unterminated quote: a closing " is missing',
      text.slice(termStart),
      termStart,
    );
  }
  return { value: text.slice(at + 1, close), end: close + 1 };
}

/** The terms of a query, in order; throws QuerySyntaxError at the first malformed one. */
export function parseQuery(text: string): QueryTerm[] {
  if (text.length > maxQueryLength) {
    throw new QuerySyntaxError(`a query holds at most ${maxQueryLength} characters`, '', maxQueryLength);
  }
  const terms: QueryTerm[] = [];
  let i = 0;
  while (i < text.length) {
    if (space.test(text[i] as string)) {
      i += 1;
      continue;
    }
    const start = i;
    const negated = text[i] === '-';
    if (negated) i += 1;
    if (text[i] === '"') {
      const { value, end } = quoted(text, i, start);
      if (end < text.length && !space.test(text[end] as string)) {
        throw new QuerySyntaxError('a quoted text must end its term', text.slice(start, end + 1), start);
      }
      terms.push({ key: undefined, value, negated, raw: text.slice(start, end), offset: start });
      i = end;
      continue;
    }
    let j = i;
    while (j < text.length && !space.test(text[j] as string) && text[j] !== ':' && text[j] !== '"') j += 1;
    if (text[j] === ':') {
      const key = text.slice(i, j).toLowerCase();
      if (key === '') throw new QuerySyntaxError('a term needs a key before its colon', text[j] as string, j);
      let end = j + 1;
      let value: string;
      if (text[end] === '"') {
        const read = quoted(text, end, start);
        value = read.value;
        end = read.end;
      } else {
        while (end < text.length && !space.test(text[end] as string)) end += 1;
        value = text.slice(j + 1, end);
      }
      if (end < text.length && !space.test(text[end] as string)) {
        throw new QuerySyntaxError('a quoted value must end its term', text.slice(start, end + 1), start);
      }
      const raw = text.slice(start, end);
      if (value === '') throw new QuerySyntaxError(`${key}: needs a value after the colon`, raw, start);
      terms.push({ key, value, negated, raw, offset: start });
      i = end;
      continue;
    }
    if (text[j] === '"') {
      throw new QuerySyntaxError('a quote may open a term or a value only', text.slice(start, j + 1), start);
    }
    const raw = text.slice(start, j);
    if (negated) {
      throw new QuerySyntaxError('only a key:value term can be negated', raw, start);
    }
    terms.push({ key: undefined, value: raw, negated: false, raw, offset: start });
    i = j;
  }
  return terms;
}
