import type { PublicRoute } from '../pipeline/runtime.js';
import { openApiDocument } from './document.js';

let serialized: string | undefined;

/** GET /api/v1/openapi.json: the OpenAPI 3.1 document, no token needed. Serialized once. */
export const servedDocument: PublicRoute = async () => {
  serialized ??= JSON.stringify(openApiDocument());
  return {
    status: 200,
    text: { contentType: 'application/json; charset=utf-8', body: serialized },
    headers: { 'Cache-Control': 'no-cache' },
  };
};
