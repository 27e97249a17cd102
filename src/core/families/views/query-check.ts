import { ApiError, type ValidationIssue, validationFailed } from '../../errors.js';
import type { ViewResource } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import { withQuery } from '../shared/query.js';

/**
 * Refuses a view's query that its resource's list would refuse, when the view is saved rather
 * than each time it runs: the very check `query=` gets (withQuery), so a saved view always runs.
 * The 400 validation_failed names the term and its offset as the list's does, but points at the
 * `query` field of the body the view came in.
 */
export async function checkViewQuery(
  ctx: OperationContext,
  resource: ViewResource,
  query: string,
): Promise<void> {
  try {
    await withQuery(ctx, resource, { query });
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'validation_failed') throw error;
    const issues = (error.extras.issues ?? []) as ValidationIssue[];
    throw validationFailed(issues.map((issue) => ({ ...issue, in: 'body', path: 'query' })));
  }
}
