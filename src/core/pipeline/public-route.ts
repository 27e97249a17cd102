import type { StorageTx } from '../port/index.js';
import type { Reply } from './reply.js';
import type { ParsedRequest } from './request.js';

/** An endpoint that needs no token; it sees the request for its query and conditional headers. */
export type PublicRoute = (tx: StorageTx, req: ParsedRequest) => Promise<Reply>;
