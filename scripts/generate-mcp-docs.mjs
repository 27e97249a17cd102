// Writes the toolset table and the tool list of docs/mcp.md (between their `:start` and `:end`
// markers) from the tool definitions in the build, which come from the route table and the
// OpenAPI document. `npm run gen:mcp-docs` runs it; test/mcp/tools.test.ts fails while the
// committed tables differ.
import { readFile, writeFile } from 'node:fs/promises';
import { toolListMarkdown, toolsetListMarkdown } from '../dist/mcp/tool-list.js';

const file = new URL('../docs/mcp.md', import.meta.url);
let text = await readFile(file, 'utf8');
for (const [name, markdown] of [
  ['toolsets', toolsetListMarkdown()],
  ['tools', toolListMarkdown()],
]) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`docs/mcp.md has no ${start} / ${end} markers`);
  text = `${text.slice(0, from + start.length)}\n${markdown}\n${text.slice(to)}`;
}
await writeFile(file, text);
