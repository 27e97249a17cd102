/**
 * Reads a request body but stops just past `limit` bytes, so an oversized upload costs at most
 * `limit + 1` bytes of memory; the core then answers 413 for it.
 */
export async function readCapped(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array | null> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    size += chunk.byteLength;
    if (size > limit) break;
  }
  if (size === 0) return null;
  return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, size);
}

/**
 * Whether request headers announce a body: an HTTP/1.1 request without Content-Length or
 * Transfer-Encoding has none, so a host need not start reading a stream that can only be empty.
 */
export function announcesBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
}
