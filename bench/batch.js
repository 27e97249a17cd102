// A 100-operation `POST /api/v1/batch` (100 creates in one transaction) against the same 100
// creates sent one by one, each awaited before the next, on one keep-alive connection: p50 of the
// wall time of each, measured by the client.
import { randomUUID } from 'node:crypto';
import { median } from './support.js';

async function post(url, headers, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status !== 200 && response.status !== 201) {
    throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer).slice(0, 200)}`);
  }
}

const elapsedMs = async (fn) => {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

/** p50 in ms of one batch of `size` creates and of `size` single creates, and their ratio. */
export async function batchVersusSingles(server, info, { size = 100, samples = 15 } = {}) {
  const headers = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };
  const create = (i) => ({ projectId: info.projectId, title: `Batched issue ${i}`, severity: 'high' });
  const batch = () =>
    post(`${server.url}/api/v1/batch`, headers, {
      operations: Array.from({ length: size }, (_, i) => ({
        method: 'POST',
        path: '/issues',
        body: create(i),
      })),
    });
  const singles = async () => {
    for (let i = 0; i < size; i++) await post(`${server.url}/api/v1/issues`, headers, create(i));
  };
  const batchMs = [];
  const singlesMs = [];
  // Two rounds each unmeasured (compiled code, warm caches), then alternating.
  for (let i = 0; i < samples + 2; i++) {
    const b = await elapsedMs(batch);
    const s = await elapsedMs(singles);
    if (i < 2) continue;
    batchMs.push(b);
    singlesMs.push(s);
  }
  const b = median(batchMs);
  const s = median(singlesMs);
  return { size, batchMs: b, singlesMs: s, ratio: s / b };
}
