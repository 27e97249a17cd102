/** The outbound side of webhooks, injected so the core does no network I/O of its own. */

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Give up after this long: a receiver has 10 s to answer. */
  timeoutMs: number;
  /** Lift the SSRF guard (local development only). */
  allowPrivateTargets: boolean;
}

export interface WebhookResult {
  /** The receiver's status, or null when no response arrived. */
  status: number | null;
  /** The receiver's Retry-After header, if any. */
  retryAfter: string | null;
  /** Why no response arrived (timeout, refused address, TLS…), or null. */
  error: string | null;
  durationMs: number;
  /** The receiver's headers (lower-case names), when it answered and the sender keeps them. */
  responseHeaders?: Record<string, string>;
  /** The first bytes of the receiver's body (at most `responseBodyCaptureBytes` of model.ts), as UTF-8. */
  responseBody?: string;
  /** Whether the body was longer than what `responseBody` holds. */
  responseBodyTruncated?: boolean;
}

export interface WebhookSender {
  /**
   * POSTs one delivery. Must connect only to an address that passes `isForbiddenAddress`
   * (checked on the address actually connected to, so DNS rebinding cannot slip past) unless
   * private targets are allowed, and must not follow redirects.
   */
  send(request: WebhookRequest): Promise<WebhookResult>;
  /** Resolves a host name to its addresses, for the check at subscription time. */
  resolve(host: string): Promise<string[]>;
  /** Lets go of kept-alive connections (the tracker calls it on close, after the dispatcher stopped). */
  close?(): void;
}

/** A receiver has this long to answer, from the start of the attempt. */
export const deliveryTimeoutMs = 10_000;
/** And this long to accept the connection (TCP and TLS): a black hole is given up on early. */
export const connectTimeoutMs = 3_000;
