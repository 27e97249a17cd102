import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueCreateSchema, issueSchema } from '../../src/core/families/issues/schema.js';
import { routes } from '../../src/core/index.js';
import { requestComponents } from '../../src/core/openapi/components.js';
import { defineRoute } from '../../src/core/pipeline/route.js';
import { agentDescriptions } from '../../src/mcp/descriptions.js';
import {
  type ToolDefinition,
  toolDefinitions,
  toolListMarkdown,
  toolsetListMarkdown,
} from '../../src/mcp/index.js';
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

/** Every `description` in a JSON Schema, at any depth. */
const descriptionsIn = (schema: unknown): string[] =>
  Array.isArray(schema)
    ? schema.flatMap(descriptionsIn)
    : schema !== null && typeof schema === 'object'
      ? Object.entries(schema).flatMap(([key, value]) =>
          key === 'description' && typeof value === 'string' ? [value] : descriptionsIn(value),
        )
      : [];

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
      expect(tool?.description.startsWith(agentDescriptions[route.operationId] ?? '')).toBe(true);
    }
    expect(tools.map((tool) => tool.name)).toContain('search');
    expect(tools.map((tool) => tool.name)).toContain('transition_issue');
  });

  it('are described for agents: every operation of the API has its own words, with no HTTP in them', () => {
    // The MCP server's own words, or those a family brings with its routes (Route.agent).
    for (const route of routes)
      expect(agentDescriptions[route.operationId] ?? route.agent, route.operationId).toBeDefined();
    // What an agent cannot send or see: headers, status codes, the event-stream media type.
    const http =
      /If-Match|If-None-Match|ETag|Idempotency-Key|Idempotent-Replayed|Location|Last-Event-ID|text\/event-stream|\b(?:200|201|202|204|304|400|404|409|412|422|428)\b/;
    for (const tool of tools) {
      const texts = [tool.title, tool.description, ...descriptionsIn(tool.inputSchema)];
      for (const text of texts) expect(text, tool.name).not.toMatch(http);
    }
  });

  it('name `version` and `idempotencyKey` once, in the argument, with one wording for each kind', () => {
    const wordings = new Map<string, Set<string>>();
    for (const tool of tools) {
      for (const name of ['version', 'idempotencyKey']) {
        const argument = tool.inputSchema.properties[name];
        if (!argument) continue;
        const kind = `${name} of ${tool.call?.kind}`;
        wordings.set(kind, (wordings.get(kind) ?? new Set()).add(String(argument.description)));
        // The tool's own description leaves retries to the argument.
        expect(tool.description, tool.name).not.toMatch(
          new RegExp(`\`${name}\` (?:is|are) optional|Send (?:an|the) \`${name}\``),
        );
      }
    }
    for (const [kind, descriptions] of wordings) expect([...descriptions], kind).toHaveLength(1);
    const transition = tools.find((tool) => tool.name === 'transition_issue');
    expect(transition?.description).not.toMatch(/Idempotency-Key|If-Match|`idempotencyKey`|`version`/);
  });

  it('take the idempotency key on creates, the version on updates, as the route kinds say', () => {
    for (const tool of tools) {
      const { properties, required = [] } = tool.inputSchema;
      expect(tool.inputSchema.type).toBe('object');
      const kind = tool.call?.kind ?? 'read';
      expect('idempotencyKey' in properties).toBe(kind === 'create' || kind === 'action');
      // The batch checks a version in each of its operations, none for itself.
      const versioned =
        (kind === 'update' || kind === 'delete' || kind === 'action') && tool.name !== 'run_batch';
      expect('version' in properties).toBe(versioned);
      expect(required.includes('version')).toBe(kind === 'update');
      for (const param of tool.call?.params ?? []) expect(required).toContain(param);
      expect(tool.annotations.readOnlyHint).toBe(kind === 'read');
      expect(tool.annotations.destructiveHint).toBe(kind === 'delete');
    }
  });

  it('have the input schema of the same zod schemas as the OpenAPI document', () => {
    const create = tools.find((tool) => tool.name === 'create_issue');
    expect(create?.inputSchema.required).toEqual(['projectId', 'title']);
    // A project by key or id: no id pattern refuses `APO` before the call.
    expect(create?.inputSchema.properties.projectId).toEqual({
      type: 'string',
      description: "A project's id (prj_…) or key (APO)",
    });
    expect(create?.references).toEqual({ projectId: { family: 'projects', list: false } });
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

  it('are listed in docs/mcp.md as the code makes them, with their toolsets (npm run gen:mcp-docs)', () => {
    const doc = readFileSync('docs/mcp.md', 'utf8');
    const listed = (name: string) =>
      new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(doc)?.[1] ?? '';
    // Compared cell by cell: the formatter pads the committed table's columns.
    expect(cells(listed('tools'))).toEqual(cells(toolListMarkdown()));
    expect(cells(listed('toolsets'))).toEqual(cells(toolsetListMarkdown()));
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
