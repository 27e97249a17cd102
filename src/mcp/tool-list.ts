import { type ToolDefinition, toolDefinitions } from './tools.js';

/** Who may call a tool, as the API's effective permission says (scope ∩ role). */
const whoMay: Record<ToolDefinition['access'], string> = {
  read: 'any token',
  write: 'read_write, member or admin',
  admin_read: 'admin',
  admin_write: 'admin (read scope: reads only)',
};

const hints = (tool: ToolDefinition): string =>
  [
    tool.annotations.readOnlyHint ? 'read-only' : null,
    tool.annotations.destructiveHint ? 'destructive' : null,
    tool.annotations.idempotentHint ? 'idempotent' : null,
  ]
    .filter((hint) => hint !== null)
    .join(', ') || '—';

/** A tool's required or optional arguments, as code spans. */
const argumentsOf = (tool: ToolDefinition, required: boolean): string => {
  const needed = new Set(tool.inputSchema.required ?? []);
  const names = Object.keys(tool.inputSchema.properties).filter((name) => needed.has(name) === required);
  return names.length > 0 ? names.map((name) => `\`${name}\``).join(', ') : '—';
};

/** The tool list of docs/mcp.md, a markdown table made from the tool definitions. */
export function toolListMarkdown(tools: readonly ToolDefinition[] = toolDefinitions()): string {
  const rows = tools.map((tool) => {
    const route = tool.call ? `\`${tool.call.method} ${tool.call.path}\`` : 'every list with `q`';
    const who = tool.call?.method === 'GET' && tool.access === 'admin_write' ? 'admin' : whoMay[tool.access];
    return `| \`${tool.name}\` | ${tool.title} | ${route} | ${argumentsOf(tool, true)} | ${argumentsOf(tool, false)} | ${hints(tool)} | ${who} |`;
  });
  return [
    '| tool | what it does | API operation | required | optional | hints | who may call |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
