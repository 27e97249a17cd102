import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Tracker } from '../core/extension-kit.js';
import { createMcpServer, type McpServerOptions } from './server.js';

/**
 * Serves MCP over this process's standard input and output, acting as one token, until the
 * client closes standard input. Standard output then carries only protocol messages.
 */
export async function serveStdio(tracker: Tracker, options: McpServerOptions): Promise<void> {
  const server = createMcpServer(tracker, options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
  });
  // The transport does not notice the end of its input by itself.
  const ended = () => void server.close();
  process.stdin.once('end', ended);
  await server.connect(transport);
  await closed;
  process.stdin.off('end', ended);
}
