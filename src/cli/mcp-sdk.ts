import { CliError } from './errors.js';

/** The MCP SDK: an optional peer dependency, installed by those who serve MCP. */
export const mcpSdkPackage = '@modelcontextprotocol/sdk';

/**
 * Loads a module that imports the MCP SDK. Without the SDK installed, `what` (the mcp command,
 * serve's --mcp) is refused with a line saying what to install, as a postgres:// database
 * without pg is, instead of Node's "Cannot find package".
 */
export async function withMcpSdk<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && message.includes(mcpSdkPackage)) {
      throw new CliError(`${what} needs the optional package ${mcpSdkPackage}: npm install ${mcpSdkPackage}`);
    }
    throw error;
  }
}
