import type { Tracker } from '../core/extension-kit.js';
import {
  ApiError,
  findIssue,
  invalidReference,
  issueKeyPattern,
  type OperationContext,
  operationContext,
  projectKey,
  tenantOf,
} from '../core/extension-kit.js';
import type { KeyedFamily, KeyedReference } from './arguments.js';
import { principalOf } from './principal.js';
import type { ToolDefinition } from './tools.js';

type Json = Record<string, unknown>;

const isKey: Record<KeyedFamily, (value: string) => boolean> = {
  projects: (value) => projectKey.safeParse(value).success,
  issues: (value) => issueKeyPattern.test(value),
};

const nouns: Record<KeyedFamily, string> = { projects: 'a project', issues: 'an issue' };

/**
 * The id of the project or issue a key names in the caller's workspace, found as the API finds
 * them: a project by its key (as an issue key's project is found), an issue by `findIssue`.
 */
async function idOfKey(ctx: OperationContext, family: KeyedFamily, key: string): Promise<string | null> {
  if (family === 'projects') {
    return (await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, { key }))?.id ?? null;
  }
  try {
    return (await findIssue(ctx, key, false)).id;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const valuesOf = (value: string, reference: KeyedReference): string[] =>
  reference.list ? value.split(',') : [value];

/**
 * The arguments with every project key (APO) and issue key (APO-12) replaced by that item's id,
 * so that every argument naming a project or an issue takes either; the API then sees ids, as
 * over HTTP. A key naming nothing in the token's workspace is refused here, naming the argument.
 * Calls that send only ids read nothing more.
 */
export async function resolveKeys(
  tracker: Tracker,
  token: string,
  tool: ToolDefinition,
  args: Json,
): Promise<Json | ApiError> {
  const keyed = Object.entries(tool.references).filter(([name, reference]) => {
    const value = args[name];
    return typeof value === 'string' && valuesOf(value, reference).some(isKey[reference.family]);
  });
  if (keyed.length === 0) return args;
  return tracker.storage.transaction(
    async (tx) => {
      const nowMs = tracker.clock.now();
      const principal = await principalOf(tx, token, nowMs);
      if (principal instanceof ApiError) return principal;
      const ctx = operationContext(tx, new Date(nowMs).toISOString(), tracker.ids, tenantOf(principal), null);
      const resolved: Json = { ...args };
      for (const [name, reference] of keyed) {
        const ids: string[] = [];
        for (const value of valuesOf(String(args[name]), reference)) {
          if (!isKey[reference.family](value)) {
            ids.push(value);
            continue;
          }
          const id = await idOfKey(ctx, reference.family, value);
          if (id === null) {
            const detail = `${name} ${value} does not name ${nouns[reference.family]} in this workspace.`;
            return tool.call?.params.includes(name)
              ? new ApiError(404, 'not_found', detail)
              : invalidReference(name, detail);
          }
          ids.push(id);
        }
        resolved[name] = ids.join(',');
      }
      return resolved;
    },
    { mode: 'read' },
  );
}
