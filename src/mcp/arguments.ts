/**
 * An argument's JSON Schema as an agent reads it. The OpenAPI document's schemas carry the
 * regular expressions the API validates with (a date-time's is 288 characters, an id list's
 * repeats the id's); an agent cannot use them, they cost its context on every call, and the API
 * still validates each argument and says what is wrong. So patterns are dropped, and what they
 * said that an agent needs (which resource an id names, the values of a comma list) is said in
 * words instead.
 */

type Json = Record<string, unknown>;

/** A family whose items an agent may name by key as well as by id. */
export type KeyedFamily = 'projects' | 'issues';

/** An argument naming projects or issues: the call resolves their keys to ids first. */
export interface KeyedReference {
  family: KeyedFamily;
  /** A comma list of them (a list filter), rather than one. */
  list: boolean;
}

interface Named {
  noun: string;
  /** The path its routes are under (`/time-entries`), when it has routes of its own. */
  path?: string;
  keyed?: { family: KeyedFamily; example: string };
}

/** What an id's prefix names; projects and issues also have keys. */
const prefixes: Record<string, Named> = {
  prj: { noun: 'project', path: '/projects', keyed: { family: 'projects', example: 'APO' } },
  iss: { noun: 'issue', path: '/issues', keyed: { family: 'issues', example: 'APO-12' } },
  out: { noun: 'outcome', path: '/outcomes' },
  dec: { noun: 'decision', path: '/decisions' },
  ctx: { noun: 'context item', path: '/context' },
  te: { noun: 'time entry', path: '/time-entries' },
  cmt: { noun: 'comment', path: '/comments' },
  view: { noun: 'saved view', path: '/views' },
  wh: { noun: 'webhook', path: '/webhooks' },
  usr: { noun: 'user' },
  rel: { noun: 'relation' },
  dlv: { noun: 'delivery' },
};

/** `^prj_[0-9A-Za-z]{1,64}$`, `^(usr_…|none)(,(usr_…|none)){0,49}$`: the prefix of the id. */
const idPattern = /^\^\(?([a-z]{2,4})_\[0-9A-Za-z\]/;
/** `^(open|in_progress)(,(open|in_progress)){0,49}$`: a comma list of values. */
const valueListPattern = /^\^\(([\w.|]+)\)\(,\(\1\)\)\{0,\d+\}\$$/;

/** `prj` → "a project's id (prj_…) or key (APO)". */
function idWords(prefix: string): string {
  const named = prefixes[prefix];
  if (!named) return `an id (${prefix}_…)`;
  // "an issue", "an outcome", but "a user".
  const article = /^[aeio]/.test(named.noun) ? 'an' : 'a';
  return `${article} ${named.noun}'s id (${prefix}_…)${named.keyed ? ` or key (${named.keyed.example})` : ''}`;
}

const withSentence = (description: unknown, sentence: string): string =>
  typeof description === 'string' && description !== '' ? `${description}. ${sentence}` : sentence;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The first id prefix any pattern of the schema names, and whether that pattern is a list. */
function referenceIn(schema: unknown): { prefix: string; list: boolean } | null {
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = referenceIn(item);
      if (found) return found;
    }
    return null;
  }
  if (schema === null || typeof schema !== 'object') return null;
  const record = schema as Json;
  if (typeof record.pattern === 'string') {
    const prefix = idPattern.exec(record.pattern)?.[1];
    if (prefix) return { prefix, list: record.pattern.includes('(,') };
  }
  return referenceIn(Object.values(record));
}

/** Every `pattern` removed, at any depth; a property named `ifMatch` (a batch operation's) described as a version. */
function withoutPatterns(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutPatterns);
  if (schema === null || typeof schema !== 'object') return schema;
  const result: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'pattern') continue;
    if (key === 'properties' && value !== null && typeof value === 'object') {
      result[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, property]) => [
          name,
          name === 'ifMatch'
            ? {
                ...(withoutPatterns(property) as Json),
                description:
                  'The `version` the resource must be at for this operation to apply, in double quotes ("3"); a stale one fails the batch with version_conflict.',
              }
            : withoutPatterns(property),
        ]),
      );
    } else result[key] = withoutPatterns(value);
  }
  return result;
}

/** The values a comma-list pattern allows, wherever it sits in the schema. */
function listedValues(schema: unknown): string[] | null {
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = listedValues(item);
      if (found) return found;
    }
    return null;
  }
  if (schema === null || typeof schema !== 'object') return null;
  const record = schema as Json;
  if (typeof record.pattern === 'string') {
    const values = valueListPattern.exec(record.pattern)?.[1];
    if (values) return values.split('|');
  }
  return listedValues(Object.values(record));
}

/**
 * A query or body argument for an agent: its schema without patterns, its description saying
 * what an id names (and that a project or an issue may be given by key), and the key reference
 * the call resolves.
 */
export function agentArgument(schema: Json): { schema: Json; reference: KeyedReference | null } {
  const reference = referenceIn(schema);
  const values = reference ? null : listedValues(schema);
  const slim = withoutPatterns(schema) as Json;
  // An agent gets the error's code, not an HTTP status: "is 400 invalid_cursor" → "is refused as invalid_cursor".
  if (typeof slim.description === 'string')
    slim.description = slim.description.replace(/\bis [45]\d\d ([a-z_]+)/g, 'is refused as $1');
  if (reference) {
    const words = idWords(reference.prefix);
    slim.description = withSentence(
      slim.description,
      reference.list ? `Each ${words.replace(/^an? /, '')}` : capitalized(words),
    );
  } else if (values) {
    slim.description = withSentence(slim.description, `Values: ${values.join(', ')}`);
  }
  const keyed = reference ? prefixes[reference.prefix]?.keyed : undefined;
  return { schema: slim, reference: keyed ? { family: keyed.family, list: reference?.list ?? false } : null };
}

/** A path parameter for an agent: `/projects/:id`'s `id` is a project's id or key. */
export function agentPathParameter(
  name: string,
  path: string,
  schema: Json,
): { schema: Json; reference: KeyedReference | null } {
  const slim = withoutPatterns(schema) as Json;
  const prefix = Object.entries(prefixes).find(
    ([, named]) => named.path && path.startsWith(`${named.path}/:`),
  )?.[0];
  if (name !== 'id' || !prefix) return { schema: slim, reference: null };
  const keyed = prefixes[prefix]?.keyed;
  return {
    schema: { ...slim, description: capitalized(idWords(prefix)) },
    // The API finds an issue by its key itself; a project's key is resolved before the call.
    reference: keyed && keyed.family !== 'issues' ? { family: keyed.family, list: false } : null,
  };
}
