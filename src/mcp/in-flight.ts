import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC's "server error" range: the request ran out of time before it was answered. */
export const deadlineCode = -32002;

/**
 * The Streamable HTTP transport, knowing which requests of its session await an answer. The SDK
 * routes each answer to the stream of the POST that sent its id, by id alone: a second POST with
 * an id still in flight takes over the first one's route, and the first POST's stream then waits
 * for an answer that never comes. So the endpoint claims a POST's ids before handing it over,
 * and refuses the POST when one is taken; an id is free again once it is answered.
 */
export class InFlightTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly inFlight = new Set<RequestId>();

  /** Claims the ids for one POST: false (and nothing claimed) when one is in flight or repeated. */
  claim(ids: readonly RequestId[]): boolean {
    if (new Set(ids).size !== ids.length || ids.some((id) => this.inFlight.has(id))) return false;
    for (const id of ids) this.inFlight.add(id);
    return true;
  }

  /** Frees ids the transport never handed to the server (it refused their POST). */
  release(ids: readonly RequestId[]): void {
    for (const id of ids) this.inFlight.delete(id);
  }

  /** Of the ids, those not yet answered. */
  unanswered(ids: readonly RequestId[]): RequestId[] {
    return ids.filter((id) => this.inFlight.has(id));
  }

  /**
   * Answers each id still in flight with a JSON-RPC error in the server's stead, as its deadline
   * passed or its client left: the server's handler is cancelled first, so that it answers
   * nothing later, and the SDK writes the error to the POST's stream and ends it as for any answer.
   */
  async abandon(ids: readonly RequestId[], message: string): Promise<void> {
    for (const id of this.unanswered(ids)) {
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: message },
      });
      // The stream may be gone already (the client left): the SDK then only forgets the id.
      await this.send({ jsonrpc: '2.0', id, error: { code: deadlineCode, message } }).catch(() => {});
      this.inFlight.delete(id);
    }
  }

  override async send(
    message: JSONRPCMessage,
    options?: Parameters<WebStandardStreamableHTTPServerTransport['send']>[1],
  ): Promise<void> {
    try {
      await super.send(message, options);
    } finally {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        if (message.id !== undefined) this.inFlight.delete(message.id);
      }
    }
  }
}

/**
 * The ids of the JSON-RPC requests in a POST's body (notifications and answers carry none the
 * server will answer); null when the body is not JSON, which the transport then refuses itself.
 */
export function requestIdsOf(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: RequestId[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}
