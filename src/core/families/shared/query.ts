import { z } from 'zod';
import { validationFailed } from '../../errors.js';
import type { OperationContext } from '../../pipeline/context.js';
import {
  andFilters,
  maxQueryLength,
  parseQuery,
  type QueryResource,
  QuerySyntaxError,
  queryFilters,
  UnmergeableFilters,
} from '../../query/index.js';
import { searchText } from './schema.js';

/** The `query` parameter of the issue, outcome and decision lists. */
export const queryParameter = z
  .string()
  .max(maxQueryLength)
  .optional()
  .describe(
    'The query language (`status:open,blocked label:bug -label:wontfix "checkout fails"`; see the API guide): its terms and the other parameters are all ANDed',
  );

const refused = (message: string, term?: { raw: string; offset: number }) =>
  validationFailed([
    { in: 'query', path: 'query', message, ...(term ? { term: term.raw, offset: term.offset } : {}) },
  ]);

/**
 * A list's parsed parameters with its `query` read and ANDed in: the same parameters, as if the
 * query's terms had been given as parameters, so the list, its cursors and its total are those
 * of the parameters. 400 validation_failed names a malformed term and its offset.
 */
export async function withQuery<Q extends { query?: string | undefined }>(
  ctx: OperationContext,
  resource: QueryResource,
  params: Q,
): Promise<Omit<Q, 'query'>> {
  const { query, ...rest } = params;
  if (query === undefined) return rest;
  try {
    const terms = parseQuery(query);
    const context = { me: ctx.tenant.actor.userId, today: ctx.now.slice(0, 10) };
    // Judged first with every project key taken as found, so that a query refused for its form
    // (a list over its 50 values, a term at odds with another) looks no key up: the keys it may
    // then look up are those of a query that could be answered, at most 50 a list.
    const named = new Set<string>();
    queryFilters(resource, terms, {
      ...context,
      projectIdOf: (key) => {
        named.add(key);
        return `prj_${key}`;
      },
    });
    const projectIds = new Map<string, string>();
    for (const key of named) {
      const project = await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, { key });
      if (project) projectIds.set(key, project.id);
    }
    const filters = queryFilters(resource, terms, { ...context, projectIdOf: (key) => projectIds.get(key) });
    if (filters.q !== undefined) {
      const text = searchText.safeParse(filters.q);
      const first = terms.find((term) => term.key === undefined) as { raw: string; offset: number };
      if (!text.success) throw refused(`free text ${text.error.issues[0]?.message ?? 'is not valid'}`, first);
      filters.q = text.data;
    }
    return andFilters(rest, filters) as Omit<Q, 'query'>;
  } catch (error) {
    if (error instanceof QuerySyntaxError)
      throw refused(error.message, { raw: error.term, offset: error.offset });
    if (error instanceof UnmergeableFilters) {
      throw refused(`${error.field} is given both as a parameter and in the query; the list takes one`);
    }
    throw error;
  }
}
