import type { Access, HttpMethod, Route, RouteKind } from '../core/extension-kit.js';
import {
  apiBase,
  buildOpenApiDocument,
  type OpenApiDocument,
  openApiDocument,
  openApiPath,
  routes as routeTable,
} from '../core/extension-kit.js';
import { agentArgument, agentPathParameter, type KeyedReference } from './arguments.js';
import { agentDescriptions } from './descriptions.js';

type Json = Record<string, unknown>;

/** A JSON Schema of an object, as MCP wants a tool's input. */
export interface ObjectSchema {
  type: 'object';
  properties: Record<string, Json>;
  required?: string[];
  additionalProperties: false;
  [keyword: string]: unknown;
}

/** The hints MCP clients show their users before a call (MCP ToolAnnotations). */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** How a tool calls the API: the route it stands for and where each argument goes. */
export interface RouteCall {
  method: HttpMethod;
  /** Under the base path, with `:name` parameters: `/issues/:id`. */
  path: string;
  kind: RouteKind;
  access: Access;
  /** The path parameters' names. */
  params: string[];
  /**
   * Where the other arguments go: the query string (reads), the JSON body (an object's fields),
   * or, for a body that is not an object (an array of operations), its `body` argument as it is.
   */
  rest: 'query' | 'body' | 'wrapped' | 'none';
}

/** One MCP tool: what `tools/list` shows, and the route `tools/call` runs. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  annotations: ToolAnnotations;
  /** The route it runs; null for `search`, which runs every list that takes `q`. */
  call: RouteCall | null;
  access: Access;
  /** The toolset that enables it (`issues`, `admin`…): see toolsets.ts. */
  toolset: string;
  /** The arguments that name projects or issues, which an agent may give by key: resolved to ids before the call. */
  references: Record<string, KeyedReference>;
  /** For `search`: the lists it runs, by family. */
  searches?: { family: string; path: string; access: Access }[];
}

/** Arguments every tool of a kind takes besides the route's own. */
export const idempotencyKeyArgument = 'idempotencyKey';
export const versionArgument = 'version';

/** Tools named otherwise than their operation: the signal list is read as "what happened since". */
const renamed: Record<string, string> = { listSignals: 'signals_since' };

/** `listTimeEntries` → `list_time_entries`. */
export const snakeCase = (operationId: string): string =>
  operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export const toolNameOf = (route: Route): string =>
  renamed[route.operationId] ?? snakeCase(route.operationId);

/**
 * The two arguments that make retries safe, each explained once, where the agent fills it in:
 * the tools' descriptions and the server's instructions refer to them by name only.
 */
const idempotencyKeySchema = (kind: RouteKind): Json => ({
  type: 'string',
  format: 'uuid',
  description:
    kind === 'create'
      ? 'A UUID you make for this create. Send the same one when you retry it: the retry answers what the first call made instead of making a second. Without one, only a resend of this very request on this connection is recognised.'
      : "Optional: a UUID for this call; a retry with the same one answers the first call's result instead of acting again.",
});

const versionSchema = (kind: RouteKind): Json => ({
  type: 'integer',
  minimum: 1,
  description:
    kind === 'update'
      ? 'The `version` of the resource as you last read it. If it changed since, the call fails with version_conflict carrying the `current` resource: merge your change into it and retry with its version.'
      : 'Optional: the `version` you last read; the call then fails with version_conflict if the resource changed since.',
});

/** `/time-entries/:id` → `time_entries`; what only admins may call is `admin`; labels go with issues, relations apart. */
export function toolsetOf(route: Route): string {
  if (route.access === 'admin_read' || route.access === 'admin_write') return 'admin';
  if (route.path === '/labels') return 'issues';
  if (route.path.includes('/watchers') || route.path.startsWith('/notifications')) return 'notifications';
  if (route.path.startsWith('/issues/:id/relations')) return 'relations';
  return (/^\/([^/]+)/.exec(route.path)?.[1] ?? route.path).replace(/-/g, '_');
}

function annotationsOf(route: Route, title: string): ToolAnnotations {
  const reads = route.kind === 'read';
  return {
    title,
    readOnlyHint: reads,
    destructiveHint: route.kind === 'delete',
    // Repeating a read, an update at one version or a delete changes nothing more; a create
    // makes one resource per idempotency key, and an action (a transition, a test delivery) acts again.
    idempotentHint: reads || route.kind === 'update' || route.kind === 'delete',
    openWorldHint: false,
  };
}

/** Resolves `$ref`s to the document's components, so each tool's schema stands alone. */
function inline(document: OpenApiDocument, schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inline(document, item));
  if (schema === null || typeof schema !== 'object') return schema;
  const record = schema as Json;
  const ref = record.$ref;
  if (typeof ref === 'string') {
    const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
    const target = (document.components[section ?? ''] as Json | undefined)?.[name ?? ''];
    if (target === undefined) throw new Error(`unresolved reference ${ref}`);
    return inline(document, target);
  }
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, inline(document, value)]));
}

interface ObjectLike {
  type?: unknown;
  properties?: Record<string, Json>;
  required?: string[];
  oneOf?: ObjectLike[];
}

/** The argument that carries a body that is not an object. */
export const wrappedBody = 'body';

/** Whether a body is an object (or a choice of objects) whose fields can be arguments. */
const isObjectLike = (schema: ObjectLike): boolean =>
  schema.oneOf
    ? schema.oneOf.every(isObjectLike)
    : schema.type === 'object' || schema.properties !== undefined;

/**
 * A body schema as one object's properties. A body of several shapes (a context item is a
 * document, a link or a note) takes the properties of all of them, a property's schemas joined
 * with `anyOf` (constants as an enum), and requires what every shape requires; `shapes` says
 * which shape needs what, for the description. The API validates the body as it is.
 */
function flattened(schema: ObjectLike): {
  properties: Record<string, Json>;
  required: string[];
  shapes: string | null;
} {
  if (!schema.oneOf)
    return { properties: schema.properties ?? {}, required: schema.required ?? [], shapes: null };
  const variants = schema.oneOf.map((variant) => flattened(variant));
  const bySchema = new Map<string, Json[]>();
  for (const variant of variants) {
    for (const [name, property] of Object.entries(variant.properties)) {
      const seen = bySchema.get(name) ?? [];
      if (!seen.some((other) => JSON.stringify(other) === JSON.stringify(property))) seen.push(property);
      bySchema.set(name, seen);
    }
  }
  const properties: Record<string, Json> = {};
  for (const [name, schemas] of bySchema) {
    const constants = schemas.map((one) => one.const);
    properties[name] =
      schemas.length === 1
        ? (schemas[0] as Json)
        : constants.every((value) => typeof value === 'string')
          ? { type: 'string', enum: constants }
          : { anyOf: schemas };
  }
  const required = variants.reduce<string[]>(
    (common, variant) => common.filter((name) => variant.required.includes(name)),
    variants[0]?.required ?? [],
  );
  const shapes = variants
    .map((variant) => {
      const fixed = Object.entries(variant.properties)
        .filter(([, property]) => property.const !== undefined)
        .map(([name, property]) => `${name} ${JSON.stringify(property.const)}`);
      const needs = variant.required.filter((name) => variant.properties[name]?.const === undefined);
      return `${fixed.join(', ') || 'one shape'} needs ${needs.map((name) => `\`${name}\``).join(', ')}`;
    })
    .join('; ');
  return { properties, required, shapes: `The arguments take one of ${variants.length} shapes: ${shapes}.` };
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

/** The tool of one route, its arguments read off the route's operation in the OpenAPI document. */
function toolOf(route: Route, document: OpenApiDocument): ToolDefinition {
  const operation = document.paths[`${apiBase}${openApiPath(route.path)}`]?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`${route.method} ${route.path} is missing from the OpenAPI document`);
  const parameters = ((operation.parameters as unknown[] | undefined) ?? []).map(
    (parameter) => inline(document, parameter) as Parameter,
  );
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  const add = (name: string, schema: Json, isRequired: boolean) => {
    if (name in properties) throw new Error(`${route.operationId}: two arguments are named ${name}`);
    properties[name] = schema;
    if (isRequired) required.push(name);
  };
  const params: string[] = [];
  const references: Record<string, KeyedReference> = {};
  const addArgument = (
    name: string,
    made: { schema: Json; reference: KeyedReference | null },
    isRequired: boolean,
  ) => {
    add(name, made.schema, isRequired);
    if (made.reference) references[name] = made.reference;
  };
  for (const parameter of parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const description = parameter.description ? { description: parameter.description } : {};
    const schema = { ...parameter.schema, ...description };
    if (parameter.in === 'path') params.push(parameter.name);
    addArgument(
      parameter.name,
      parameter.in === 'path'
        ? agentPathParameter(parameter.name, route.path, schema)
        : agentArgument(schema),
      parameter.required === true,
    );
  }
  const requestBody = operation.requestBody as Json | undefined;
  const bodySchema = requestBody
    ? (inline(document, (requestBody.content as Json)['application/json']) as Json).schema
    : undefined;
  const wrapped = bodySchema !== undefined && !isObjectLike(bodySchema as ObjectLike);
  const body = !bodySchema
    ? null
    : wrapped
      ? { properties: { [wrappedBody]: bodySchema as Json }, required: [wrappedBody], shapes: null }
      : flattened(bodySchema as ObjectLike);
  if (body) {
    for (const [name, schema] of Object.entries(body.properties))
      addArgument(name, agentArgument(schema), body.required.includes(name));
  }
  if (route.kind === 'create' || route.kind === 'action') {
    add(idempotencyKeyArgument, idempotencyKeySchema(route.kind), false);
  }
  // A batch carries a version in each operation: one for the batch itself would check nothing.
  if (
    (route.kind === 'update' || route.kind === 'delete' || route.kind === 'action') &&
    !route.runsOperations
  ) {
    add(versionArgument, versionSchema(route.kind), route.kind === 'update');
  }
  const hasQuery = parameters.some((parameter) => parameter.in === 'query');
  return {
    name: toolNameOf(route),
    title: route.summary,
    description: `${agentDescriptions[route.operationId] ?? route.agent ?? route.description}${body?.shapes ? ` ${body.shapes}` : ''}`,
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    },
    annotations: annotationsOf(route, route.summary),
    call: {
      method: route.method,
      path: route.path,
      kind: route.kind,
      access: route.access,
      params,
      rest: wrapped ? 'wrapped' : bodySchema ? 'body' : hasQuery ? 'query' : 'none',
    },
    access: route.access,
    toolset: toolsetOf(route),
    references,
  };
}

/** A list route's family (`/time-entries` → `time-entries`) when it takes the search text `q`. */
function searchable(tool: ToolDefinition): { family: string; path: string; access: Access } | null {
  const call = tool.call;
  if (call?.method !== 'GET' || call.params.length > 0 || !('q' in tool.inputSchema.properties)) return null;
  return { family: call.path.slice(1), path: call.path, access: call.access };
}

/** The `search` tool: `q` across every list that takes it. */
function searchTool(lists: { family: string; path: string; access: Access }[]): ToolDefinition {
  const families = lists.map((list) => list.family);
  return {
    name: 'search',
    title: 'Search across families',
    description: `Finds ${families.join(', ')} whose text contains \`q\`: the first place to look when you know words but not a key or id. Answers, for each family, up to \`limit\` items (newest first) and how many match in all; the family's list tool with \`q\` pages through the rest.`,
    inputSchema: {
      type: 'object',
      properties: {
        q: {
          type: 'string',
          minLength: 3,
          maxLength: 200,
          description: 'The text to find (at least 3 characters).',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          default: 10,
          description: 'At most this many items of each family.',
        },
      },
      required: ['q'],
      additionalProperties: false,
    },
    annotations: {
      title: 'Search across families',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    call: null,
    access: 'read',
    toolset: 'search',
    references: {},
    searches: lists,
  };
}

let defaultTools: ToolDefinition[] | undefined;

/**
 * Every tool: one per operation of the API (so a family is a tool set once its routes are in the
 * route table), then `search`. Names, descriptions and input schemas come from the route table
 * and the OpenAPI document made from the same zod schemas.
 */
export function toolDefinitions(routes: readonly Route[] = routeTable): ToolDefinition[] {
  if (routes === routeTable && defaultTools) return defaultTools;
  const document = routes === routeTable ? openApiDocument() : buildOpenApiDocument(routes);
  const tools = routes.map((route) => toolOf(route, document));
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new Error(`two operations make the tool ${tool.name}`);
    names.add(tool.name);
  }
  const lists = tools.map(searchable).filter((list) => list !== null);
  const all = lists.length > 0 ? [...tools, searchTool(lists)] : tools;
  if (routes === routeTable) defaultTools = all;
  return all;
}
