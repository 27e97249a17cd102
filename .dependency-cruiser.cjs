/**
 * The layering of src/ (see ARCHITECTURE.md), checked by `npm run check:layers` as part of
 * `npm test`. Type-only imports count: a cycle or an upward import through types still couples
 * the layers.
 */

// What an adapter may take from the core: the port, the model, and pure helpers that are part of
// the storage contract (the collection definitions it maps to tables, the copy order, the sort
// keys it indexes, the field picking it shares with the core).
const coreForAdapters =
  '^src/core/(port/|model\\.ts$|families/(collections|dump-tables)\\.ts$|sort-keys\\.ts$|with-fields\\.ts$)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere in src: a cycle makes load order matter and layers meaningless.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'sqlite-engine-alone',
      comment:
        'The SQLite engine (connection, transaction queue, checkpoints, read cache) knows nothing of the stores built on it nor of the core: a store reaches it through engine/types.ts.',
      severity: 'error',
      from: { path: '^src/adapters/sqlite/engine/' },
      to: { path: '^src/(core/|adapters/sqlite/stores/)' },
    },
    {
      name: 'core-not-upward',
      comment:
        'The core answers plain requests over the port: it never imports a host, an adapter, the CLI, the MCP server, the admin extension or the client.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(admin|http|adapters|cli|mcp|testing)/' },
    },
    {
      name: 'core-signs-with-the-client',
      comment:
        "Webhook signatures have one implementation, on Web Crypto, in the client (which carries nothing of the server): the core's signing modules import it, and no other core file imports the client.",
      severity: 'error',
      from: { path: '^src/core/', pathNot: '^src/core/webhooks/(signature|standard-signature)\\.ts$' },
      to: { path: '^src/client/' },
    },
    {
      name: 'port-is-the-floor',
      comment:
        'The storage port imports only itself and the model: pipeline, families and webhooks stand on it.',
      severity: 'error',
      from: { path: '^src/core/port/' },
      to: { path: '^src/', pathNot: '^src/core/(port/|model\\.ts$)' },
    },
    {
      name: 'engine-below-families',
      comment:
        'The pipeline and the webhook engine serve every family: they never import one, nor what is built on the families (OpenAPI, transfer, the tracker).',
      severity: 'error',
      from: { path: '^src/core/(pipeline|webhooks)/' },
      to: { path: '^src/core/(families/|openapi/|transfer/|tracker\\.ts$|routes\\.ts$)' },
    },
    {
      name: 'webhooks-below-pipeline',
      comment:
        'The pipeline announces changes through the webhook engine (webhooks/announce.ts), never the reverse.',
      severity: 'error',
      from: { path: '^src/core/webhooks/' },
      to: { path: '^src/core/pipeline/' },
    },
    {
      name: 'adapters-use-the-port',
      comment:
        'An adapter implements the port: it takes nothing of the core but the port, the model and pure helpers.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^src/core/', pathNot: coreForAdapters },
    },
    {
      name: 'hosts-use-public-entries',
      comment:
        "A host holds no behaviour: it imports the core's public entry (index.ts) and its host kit (host.ts).",
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/core/', pathNot: '^src/core/(index|host)\\.ts$' },
    },
    {
      name: 'core-no-host-packages',
      comment:
        'The core is a plain request handler over the port: no web framework, database driver or HTTP server. Hosts (src/http) and adapters bring those.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '(^|node_modules/)(@types/)?(hono|better-sqlite3|pg)(/|$)|^(node:)?http$' },
    },
    {
      name: 'core-no-sockets',
      comment:
        "The core opens no socket: only the SSRF guard (webhooks/ssrf.ts) takes node:net, for its address arithmetic (BlockList, isIP); the sockets are the host's webhook sender's.",
      severity: 'error',
      from: { path: '^src/core/', pathNot: '^src/core/webhooks/ssrf\\.ts$' },
      to: { path: '^(node:)?net$' },
    },
    {
      name: 'extensions-use-public-entries',
      comment:
        "The admin area and the MCP server are extensions: they import the core's public entry (index.ts) and the extension kit (extension-kit.ts), never its insides.",
      severity: 'error',
      from: { path: '^src/(admin|mcp)/' },
      to: { path: '^src/core/', pathNot: '^src/core/(index|extension-kit)\\.ts$' },
    },
    {
      name: 'extensions-not-adapters',
      comment:
        'An extension works through the storage the tracker hands it (ExtensionHost), whatever adapter that is: it never imports one.',
      severity: 'error',
      from: { path: '^src/(admin|mcp)/' },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'pipeline-loads-no-family',
      comment:
        'The pipeline serves whatever routes the tracker builds it: the family list and the OpenAPI document reach it only as values the tracker passes in, never by an import, however indirect.',
      severity: 'error',
      from: { path: '^src/core/pipeline/' },
      to: { path: '^src/core/(families/index|openapi/document)\\.ts$', reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stays in the graph (as leaves, not followed) so the rules see which packages are imported.
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
