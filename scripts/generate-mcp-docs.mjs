// Writes the tool list of docs/mcp.md (between its tools:start and tools:end markers) from the
// tool definitions in the build, which come from the route table and the OpenAPI document.
// `npm run gen:mcp-docs` runs it; test/mcp/docs.test.ts fails while the committed list differs.
import { readFile, writeFile } from 'node:fs/promises';
import { toolListMarkdown } from '../dist/mcp/tool-list.js';

const file = new URL('../docs/mcp.md', import.meta.url);
const text = await readFile(file, 'utf8');
const start = '<!-- tools:start -->';
const end = '<!-- tools:end -->';
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from === -1 || to < from) throw new Error('docs/mcp.md has no tools:start / tools:end markers');
await writeFile(file, `${text.slice(0, from + start.length)}\n${toolListMarkdown()}\n${text.slice(to)}`);
