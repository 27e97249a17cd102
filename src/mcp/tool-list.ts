import { type ToolDefinition, toolDefinitions } from './tools.js';
import { defaultToolsets, toolsetNames } from './toolsets.js';

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
    return `| \`${tool.name}\` | \`${tool.toolset}\` | ${tool.title} | ${route} | ${argumentsOf(tool, true)} | ${argumentsOf(tool, false)} | ${hints(tool)} | ${who} |`;
  });
  return [
    '| tool | toolset | what it does | API operation | required | optional | hints | who may call |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The toolset table of docs/mcp.md: each toolset, whether it is on by default, and its tools. */
export function toolsetListMarkdown(tools: readonly ToolDefinition[] = toolDefinitions()): string {
  const rows = toolsetNames(tools).map((toolset) => {
    const members = tools.filter((tool) => tool.toolset === toolset);
    const names = members.map((tool) => `\`${tool.name}\``).join(', ');
    return `| \`${toolset}\` | ${defaultToolsets.includes(toolset) ? 'yes' : '—'} | ${members.length} | ${names} |`;
  });
  return ['| toolset | default | tools | names |', '|---|---|---|---|', ...rows].join('\n');
}
