import { createRequire } from 'node:module';

// package.json sits two levels up from both src/mcp and dist/mcp: the server reports the version
// of the package it was installed as, written in one place.
const manifest = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The MCP server's name and version, as `initialize` reports them. */
export const serverInfo = { name: 'outcome-tracker', version: manifest.version } as const;
