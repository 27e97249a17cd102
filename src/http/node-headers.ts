import type { IncomingMessage } from 'node:http';

/**
 * A Node request's headers as Node parsed them, but for a repeated Authorization: Node keeps
 * only the first, where a proxy in front may act on the last. Every one is handed on (joined, as
 * fetch hosts hand repeated headers), which no token scheme parses: the request is refused
 * (401) rather than answered as whichever token one side picked.
 */
export function nodeRequestHeaders(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    // The length first: most names are not 13 characters long, and lower-casing costs.
    if (name.length === 13 && name.toLowerCase() === 'authorization' && ++seen > 1) {
      return { ...req.headers, authorization: req.headersDistinct.authorization };
    }
  }
  return req.headers;
}
