import type { IncomingMessage, ServerResponse } from 'node:http';

/** Five minutes either way. */
export declare const toleranceSeconds: number;

export type Verdict = { ok: true } | { ok: false; reason: string };

/** Checks a delivery's X-Service-Signature over the exact bytes received. */
export declare function verifySignature(input: {
  rawBody: Uint8Array | string;
  header: string | string[] | undefined;
  secret: string;
  nowSeconds: number;
  tolerance?: number;
}): Verdict;

/** A request listener that verifies deliveries and calls `onEvent` once per event id. */
export declare function createReceiver(options: {
  secret: string;
  onEvent: (event: { id: string; type: string; occurredAt: string; data: unknown }) => unknown;
  now?: () => number;
  maxRemembered?: number;
}): (req: IncomingMessage, res: ServerResponse) => void;
