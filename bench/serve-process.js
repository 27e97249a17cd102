// What the benchmarks that start `serve` processes share: stopping one, and a create through it.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';

/** Stops a `serve` child process (SIGTERM, as an operator would) and waits until it has exited. */
export async function stop(server) {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
}

/** POSTs a create with a fresh Idempotency-Key and answers the created resource; anything but 201 throws. */
export async function post(url, token, path, body) {
  const response = await fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}
