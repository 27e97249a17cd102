import { ApiError } from './errors.js';
import type { Reply } from './pipeline/reply.js';
import type { Storage } from './port/index.js';

/** How long readiness waits for storage before calling it unready. */
export const readinessTimeoutMs = 2000;

const noStore = { 'Cache-Control': 'no-store' };

/**
 * GET /healthz, liveness: the process answers. It touches neither storage nor the rate limit, so
 * an orchestrator's probe never restarts a healthy process because its database is slow.
 */
export const liveness = (): Reply => ({ status: 200, body: { status: 'ok' }, headers: noStore });

/**
 * GET /readyz, readiness: 200 once storage has answered a query, 503 when it fails or takes longer
 * than `readinessTimeoutMs`, so a balancer stops sending traffic to a process that cannot serve it.
 */
export async function readiness(storage: Storage): Promise<Reply> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), readinessTimeoutMs);
  });
  const check = storage
    .transaction(
      async (tx) => {
        await tx.tenancy.getWorkspace('ws_readiness_probe');
        return 'ready' as const;
      },
      { mode: 'read' },
    )
    .catch(() => 'failed' as const);
  const result = await Promise.race([check, timedOut]).finally(() => clearTimeout(timer));
  if (result === 'ready') return { status: 200, body: { status: 'ready' }, headers: noStore };
  const error = new ApiError(
    503,
    'service_unavailable',
    result === 'timeout'
      ? `Storage did not answer within ${readinessTimeoutMs} ms.`
      : 'Storage cannot answer queries.',
  );
  return { status: 503, body: error.toProblem(), headers: { ...noStore, 'Retry-After': '5' } };
}
