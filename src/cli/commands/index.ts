import type { Command } from '../command.js';
import { CliError } from '../errors.js';
import { withMcpSdk } from '../mcp-sdk.js';

/** A command's name and summary, and how to load it (lazily: `users create` never loads Hono). */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

/**
 * Loads a command whose module may be absent from this build, so its slot can exist before
 * its implementation: a missing module is reported as such, never faked.
 */
async function loadOptional(name: string, specifier: string): Promise<Command> {
  try {
    const module: { command: Command } = await import(specifier);
    return module.command;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new CliError(`the ${name} command is not included in this build`);
    }
    throw error;
  }
}

const openapiModule = './openapi.js';

/** The mcp command, which needs the optional MCP SDK: its absence is said as such. */
const loadMcp = (): Promise<Command> =>
  withMcpSdk('the mcp command', async () => (await import('./mcp.js')).command as Command);

/** Every command, in the order `--help` lists them. */
export const commandTable: readonly CommandEntry[] = [
  {
    name: 'init',
    summary: 'Create an account, a workspace, its admin and an API token',
    load: async () => (await import('./init.js')).command as Command,
  },
  {
    name: 'users create',
    summary: 'Add a user to a workspace with a role',
    load: async () => (await import('./users-create.js')).command as Command,
  },
  {
    name: 'users list',
    summary: 'List the members of a workspace, or of every workspace',
    load: async () => (await import('./users-list.js')).command as Command,
  },
  {
    name: 'users set-role',
    summary: "Change a member's role in a workspace",
    load: async () => (await import('./users-set-role.js')).command as Command,
  },
  {
    name: 'users remove',
    summary: 'Remove a member from a workspace and revoke their tokens there',
    load: async () => (await import('./users-remove.js')).command as Command,
  },
  {
    name: 'users invite',
    summary: 'Add a user and print a one-time link to set their password',
    load: async () => (await import('./users-invite.js')).command as Command,
  },
  {
    name: 'users set-password',
    summary: "Set a user's password for the admin pages (read from stdin)",
    load: async () => (await import('./users-set-password.js')).command as Command,
  },
  {
    name: 'tokens create',
    summary: 'Issue an API token for a member of a workspace (printed once)',
    load: async () => (await import('./tokens-create.js')).command as Command,
  },
  {
    name: 'tokens list',
    summary: 'List the API tokens of a workspace, or of every workspace',
    load: async () => (await import('./tokens-list.js')).command as Command,
  },
  {
    name: 'tokens revoke',
    summary: 'Revoke an API token',
    load: async () => (await import('./tokens-revoke.js')).command as Command,
  },
  {
    name: 'projects create',
    summary: 'Create a project in a workspace',
    load: async () => (await import('./projects-create.js')).command as Command,
  },
  {
    name: 'issues list',
    summary: 'List the issues of a workspace, narrowed by the query language of GET /issues?query=',
    load: async () => (await import('./issues-list.js')).command as Command,
  },
  {
    name: 'serve',
    summary: 'Serve the API, the admin pages and the webhook dispatcher over HTTP',
    load: async () => (await import('./serve.js')).command as Command,
  },
  {
    name: 'mcp',
    summary: 'Serve the Model Context Protocol over stdio, acting as an API token',
    load: () => loadMcp(),
  },
  {
    name: 'distribute',
    summary: 'Create the schema on a Citus coordinator and distribute every table by account',
    load: async () => (await import('./distribute.js')).command as Command,
  },
  {
    name: 'copy',
    summary: 'Copy a whole database into an empty one (SQLite file or postgres:// URL)',
    load: async () => (await import('./copy.js')).command as Command,
  },
  {
    name: 'export',
    summary: 'Write a workspace as JSON Lines (to a file or standard output)',
    load: async () => (await import('./export.js')).command as Command,
  },
  {
    name: 'import',
    summary: 'Import a JSON Lines export, or issues from GitHub, Jira, Linear or a CSV file',
    load: async () => (await import('./import.js')).command as Command,
  },
  {
    name: 'openapi',
    summary: 'Print the OpenAPI 3.1 document of the API',
    load: () => loadOptional('openapi', openapiModule),
  },
];
