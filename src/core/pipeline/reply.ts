import { etagFor } from './conditional.js';

/** What a route handler answers; the pipeline serializes it and adds the common headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** 200 with a single versioned resource and its ETag. */
export const resource = (body: { version: number }, status = 200): Reply => ({
  status,
  body,
  headers: { ETag: etagFor(body.version) },
});

export const ok = (body: unknown): Reply => ({ status: 200, body });

export const noContent = (): Reply => ({ status: 204 });
