import { afterEach, beforeEach, describe } from 'vitest';
import type { IssueStatus, SignalEvent } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { type Host, newKey, type ServerOptions, startServer, type TestServer } from './harness.js';
import { issueLists } from './issues-lists.js';
import { issueWrites } from './issues-writes.js';
import { pipelineBasics } from './pipeline-basics.js';
import { pipelineStatuses } from './pipeline-statuses.js';
import { expectJson, type HttpSuiteContext } from './suite-support.js';

/**
 * Runs the suite through `host`, on memory storage unless an adapter under test is given. Its two
 * subjects are in parts of their own: the pipeline's contract (headers, every error status,
 * conditional requests) and the issues family that the pipeline is shown on.
 */
export function runHttpSuite(host: Host, adapter?: AdapterUnderTest): void {
  const on = adapter ? ` on ${adapter.name} storage` : '';
  /** Server options with a fresh store of the adapter, unless they bring their own storage. */
  const withStorage = async (options: ServerOptions = {}): Promise<ServerOptions> =>
    adapter && !options.storage ? { ...options, storage: await adapter.create() } : options;

  describe(`the HTTP API served by the ${host} host${on}`, () => {
    let s: TestServer;
    const extra: TestServer[] = [];

    beforeEach(async () => {
      s = await startServer(host, await withStorage());
    });

    afterEach(async () => {
      await Promise.all([s.close(), ...extra.splice(0).map((x) => x.close())]);
    });

    const t: HttpSuiteContext = {
      host,
      adapter,
      server: () => s,
      startExtra: async (options) => {
        const server = await startServer(host, await withStorage(options));
        extra.push(server);
        return server;
      },
      createIssue: async (body = {}, options = {}) => {
        const server = options.server ?? s;
        const res = await server.api('POST', '/api/v1/issues', {
          token: options.token ?? server.tokens.admin,
          headers: { 'Idempotency-Key': options.key ?? newKey() },
          body: { projectId: server.ws.projectId, title: 'Login fails on Safari', ...body },
        });
        return expectJson(res, 201, server.limit ?? undefined);
      },
      transition: (id: string, to: IssueStatus, headers: Record<string, string> = {}) =>
        s.api('POST', `/api/v1/issues/${id}/transition`, { token: s.tokens.admin, body: { to }, headers }),
      signals: (server = s): Promise<SignalEvent[]> =>
        server.storage.transaction((tx) => tx.signals.list({ accountId: server.ws.accountId, limit: 100 })),
      listIssues: async (query = '', token = s.tokens.admin) =>
        expectJson(await s.api('GET', `/api/v1/issues${query}`, { token }), 200),
    };

    pipelineBasics(t);
    pipelineStatuses(t);
    issueWrites(t);
    issueLists(t);
  });
}
