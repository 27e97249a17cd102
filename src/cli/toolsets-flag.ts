import { z } from 'zod';
import { parseToolsets } from '../mcp/toolsets.js';
import type { Flag } from './command.js';

/** `--toolsets`, of `mcp` and `serve --mcp`: which of the MCP server's toolsets it serves. */
export const toolsetsFlag = (variable: string) =>
  ({
    type: 'string',
    value: '<names>',
    description:
      'The MCP toolsets to serve, comma-separated: issues, comments, admin…, `default` (the default ones) or `all`',
    env: [variable],
  }) as const satisfies Flag;

/**
 * Checked as the command line is read, so an unknown name is a usage error listing the valid
 * ones before anything starts. Reading the names builds the tool list (no MCP SDK needed).
 */
export const toolsetsOption = z
  .string()
  .superRefine((value, context) => {
    const parsed = parseToolsets(value);
    if (parsed instanceof Error) context.addIssue({ code: 'custom', message: parsed.message });
  })
  .optional();
