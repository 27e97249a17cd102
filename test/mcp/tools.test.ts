import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueCreateSchema, issueSchema } from '../../src/core/families/issues/schema.js';
import { routes } from '../../src/core/index.js';
import { requestComponents } from '../../src/core/openapi/components.js';
import { defineRoute } from '../../src/core/pipeline/route.js';
import { type ToolDefinition, toolDefinitions, toolListMarkdown } from '../../src/mcp/index.js';
import { snakeCase } from '../../src/mcp/tools.js';

/** A markdown table's cells, trimmed, row by row (a separator row's cells as `---`). */
const cells = (table: string): string[][] =>
  table
    .trim()
    .split('\n')
    .map((row) =>
      row
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => (/^\s*:?-+:?\s*$/.test(cell) ? '---' : cell.trim())),
    );

const labelsBody = z.array(z.string().min(1)).min(1);

describe('the MCP tools', () => {
  const tools = toolDefinitions();

  it('are one per route of the API, named after its operationId, and search', () => {
    const named = tools.filter((tool) => tool.call !== null);
    expect(named.map((tool) => `${tool.call?.method} ${tool.call?.path}`)).toEqual(
      routes.map((route) => `${route.method} ${route.path}`),
    );
    for (const route of routes) {
      const tool = tools.find((t) => t.call?.method === route.method && t.call.path === route.path);
      expect(tool?.name).toBe(
        route.operationId === 'listSignals' ? 'signals_since' : snakeCase(route.operationId),
      );
      expect(tool?.description.startsWith(route.description)).toBe(true);
    }
    expect(tools.map((tool) => tool.name)).toContain('search');
    expect(tools.map((tool) => tool.name)).toContain('transition_issue');
  });

  it('take the idempotency key on creates, the version on updates, as the route kinds say', () => {
    for (const tool of tools) {
      const { properties, required = [] } = tool.inputSchema;
      expect(tool.inputSchema.type).toBe('object');
      const kind = tool.call?.kind ?? 'read';
      expect('idempotencyKey' in properties).toBe(kind === 'create' || kind === 'action');
      expect('version' in properties).toBe(kind === 'update' || kind === 'delete' || kind === 'action');
      expect(required.includes('version')).toBe(kind === 'update');
      for (const param of tool.call?.params ?? []) expect(required).toContain(param);
      expect(tool.annotations.readOnlyHint).toBe(kind === 'read');
      expect(tool.annotations.destructiveHint).toBe(kind === 'delete');
    }
  });

  it('have the input schema of the same zod schemas as the OpenAPI document', () => {
    const create = tools.find((tool) => tool.name === 'create_issue');
    expect(create?.inputSchema.required).toEqual(['projectId', 'title']);
    expect(create?.inputSchema.properties.severity).toEqual({
      type: 'string',
      enum: ['low', 'medium', 'high', 'critical'],
    });
    const list = tools.find((tool) => tool.name === 'list_issues');
    expect(Object.keys(list?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'projectId', 'status', 'severity', 'q']),
    );
    const search = tools.find((tool) => tool.name === 'search');
    expect(search?.searches?.map((list) => list.family)).toEqual(
      expect.arrayContaining(['projects', 'outcomes', 'issues']),
    );
  });

  it('come to a family by its being in the route table, with no tool written for it', () => {
    const notes = defineRoute({
      method: 'POST',
      path: '/notes',
      access: 'write',
      kind: 'create',
      operationId: 'createNote',
      summary: 'Create a note',
      description: 'Creates a note.',
      examples: {},
      body: issueCreateSchema,
      response: issueSchema,
      handle: async () => ({ status: 201 }),
    });
    const tool = toolDefinitions([...routes, notes]).find((t) => t.name === 'create_note');
    expect(tool?.call).toMatchObject({ method: 'POST', path: '/notes', kind: 'create' });
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['projectId', 'title', 'idempotencyKey']),
    );
  });

  it('take a body that is not an object (a batch of operations) as their body argument', () => {
    const batch = defineRoute({
      method: 'POST',
      path: '/labels',
      access: 'write',
      kind: 'action',
      operationId: 'setLabels',
      summary: 'Set labels',
      description: 'Sets labels.',
      examples: {},
      body: labelsBody,
      response: issueSchema,
      handle: async () => ({ status: 200 }),
    });
    // Named for the OpenAPI document, as a family's body schemas are.
    requestComponents.Labels = labelsBody;
    let tool: ToolDefinition | undefined;
    try {
      tool = toolDefinitions([...routes, batch]).find((t) => t.name === 'set_labels');
    } finally {
      delete requestComponents.Labels;
    }
    expect(tool?.call?.rest).toBe('wrapped');
    expect(tool?.inputSchema.properties.body).toMatchObject({ type: 'array' });
    expect(tool?.inputSchema.required).toEqual(['body']);
  });

  it('are listed in docs/mcp.md as the code makes them (npm run gen:mcp-docs)', () => {
    const doc = readFileSync('docs/mcp.md', 'utf8');
    const listed = /<!-- tools:start -->\n([\s\S]*?)\n<!-- tools:end -->/.exec(doc)?.[1];
    // Compared cell by cell: the formatter pads the committed table's columns.
    expect(cells(listed ?? '')).toEqual(cells(toolListMarkdown()));
  });

  it('are configured in docs/mcp.md with JSON that parses', () => {
    const doc = readFileSync('docs/mcp.md', 'utf8');
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) expect(() => JSON.parse(block)).not.toThrow();
  });

  it('are made outside the core, which never imports the SDK or the MCP module', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(join(dir, entry.name))
          : entry.name.endsWith('.ts')
            ? [join(dir, entry.name)]
            : [],
      );
    const importers = ['src/core', 'src/http', 'src/client', 'src/adapters']
      .flatMap(sources)
      .filter((file) => /from '(@modelcontextprotocol\/|[./]+\/mcp\/)/.test(readFileSync(file, 'utf8')));
    expect(importers).toEqual([]);
  });
});
