/**
 * outcome-tracker's Model Context Protocol server, on the official SDK (an optional peer
 * dependency): the API's operations as tools, its issues, outcomes and decisions as resources.
 */

export type { Api, ApiAnswer, ApiCall } from './api.js';
export { trackerApi } from './api.js';
export { derivedIdempotencyKey, metaKey, type ToolResult } from './call.js';
export { type McpEndpointOptions, mcpEndpoint } from './http.js';
export { parseResourceUri, resourceFamilies, resourceTemplates, resourceUriOf } from './resources.js';
export { createMcpServer, type McpServerOptions } from './server.js';
export { serveStdio } from './stdio.js';
export { toolListMarkdown, toolsetListMarkdown } from './tool-list.js';
export { type ObjectSchema, type ToolAnnotations, type ToolDefinition, toolDefinitions } from './tools.js';
export {
  allToolsets,
  defaultToolsets,
  defaultToolsetsName,
  parseToolsets,
  ToolsetError,
  toolsetNames,
  toolsetsHeader,
} from './toolsets.js';
export { serverInfo } from './version.js';
