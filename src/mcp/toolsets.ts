import { type ToolDefinition, toolDefinitions } from './tools.js';

/**
 * The toolsets a connection gets when it names none: finding things, and the projects, outcomes,
 * issues and decisions an agent tracks work with (25 tools). Every tool's schema is read into the
 * agent's context before it does anything, so the rest (comments, relations, context items, time
 * entries, watching and notifications, the batch, and the admin tools) are enabled by name, as
 * GitHub's MCP server does.
 */
export const defaultToolsets: readonly string[] = ['search', 'projects', 'outcomes', 'issues', 'decisions'];

/** Names every toolset. */
export const allToolsets = 'all';
/** Names the default toolsets, to add others to them: `default,comments`. */
export const defaultToolsetsName = 'default';

/** The header that names a session's toolsets when the URL's `?toolsets=` does not. */
export const toolsetsHeader = 'x-mcp-toolsets';

/** A toolset name the server does not have, or none named: its message lists the valid ones. */
export class ToolsetError extends Error {
  override name = 'ToolsetError';
}

/** Every toolset, in the order of the tools (the route table's). */
export function toolsetNames(tools: readonly ToolDefinition[] = toolDefinitions()): string[] {
  return [...new Set(tools.map((tool) => tool.toolset))];
}

/** `all, default (search, projects, …), relations, …`: what a refusal lists. */
function validNames(tools: readonly ToolDefinition[]): string {
  const others = toolsetNames(tools).filter((name) => !defaultToolsets.includes(name));
  return [allToolsets, `${defaultToolsetsName} (${defaultToolsets.join(', ')})`, ...others].join(', ');
}

/**
 * The toolsets a `--toolsets` value (or `?toolsets=`) enables: names separated by commas, `all`
 * for every one, `default` for the default ones. Nothing given: the default toolsets. An unknown
 * name, or a value naming none, is a ToolsetError listing the valid names.
 */
export function parseToolsets(
  requested: string | readonly string[] | undefined,
  given?: readonly ToolDefinition[],
): ReadonlySet<string> | ToolsetError {
  if (requested === undefined) return new Set(defaultToolsets);
  const tools = given ?? toolDefinitions();
  const names = (
    typeof requested === 'string' ? requested.split(',') : requested.flatMap((n) => n.split(','))
  )
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return new ToolsetError(`no toolset named; the toolsets are: ${validNames(tools)}`);
  const known = toolsetNames(tools);
  const enabled = new Set<string>();
  for (const name of names) {
    if (name === allToolsets) for (const toolset of known) enabled.add(toolset);
    else if (name === defaultToolsetsName) for (const toolset of defaultToolsets) enabled.add(toolset);
    else if (known.includes(name)) enabled.add(name);
    else return new ToolsetError(`unknown toolset "${name}"; the toolsets are: ${validNames(tools)}`);
  }
  return enabled;
}

/** The tools of the enabled toolsets. */
export const toolsIn = (toolsets: ReadonlySet<string>, tools: readonly ToolDefinition[]): ToolDefinition[] =>
  tools.filter((tool) => toolsets.has(tool.toolset));

/**
 * The toolsets an HTTP request to /mcp asks for: its `?toolsets=` query parameter, else its
 * X-MCP-Toolsets header, else what the endpoint was given (else the default ones).
 */
export function toolsetsOfRequest(
  request: { url: string; headers: Record<string, string> },
  fallback: string | readonly string[] | undefined,
): ReadonlySet<string> | ToolsetError {
  const query = new URL(request.url, 'http://localhost').searchParams;
  const asked = query.has('toolsets') ? query.getAll('toolsets') : request.headers[toolsetsHeader];
  return parseToolsets(asked ?? fallback);
}
