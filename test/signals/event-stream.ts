/** A test's reader of a server-sent event stream over real HTTP. */

/** One server-sent event, or a comment (heartbeat). */
export interface Message {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

/** An open event stream: messages arrive in `messages`; `next(n)` waits for n more events. */
export interface Stream {
  status: number;
  contentType: string | null;
  messages: Message[];
  events(): Message[];
  /** Waits until the stream has delivered `count` events (not comments) in all. */
  waitForEvents(count: number): Promise<Message[]>;
  waitFor(check: (messages: Message[]) => boolean): Promise<void>;
  /** Resolves when the server has ended the stream (or disconnect() was called). */
  ended(): Promise<void>;
  disconnect(): Promise<void>;
}

export async function openStream(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const messages: Message[] = [];
  let wake: () => void = () => {};
  let closed = false;
  const pump = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: Message = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) message.comment = line.slice(1).trim();
            const at = line.indexOf(': ');
            if (at > 0) {
              const field = line.slice(0, at) as keyof Message;
              if (['id', 'event', 'data', 'retry'].includes(field)) message[field] = line.slice(at + 2);
            }
          }
          messages.push(message);
        }
        wake();
      }
    } catch {
      // Aborted by disconnect().
    } finally {
      closed = true;
      wake();
    }
  })();
  const events = () => messages.filter((m) => m.id !== undefined);
  const waitFor = async (check: (messages: Message[]) => boolean) => {
    while (!check(messages)) {
      if (closed) throw new Error('the stream ended');
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    messages,
    events,
    async waitForEvents(count) {
      await waitFor(() => events().length >= count);
      return events();
    },
    waitFor,
    ended: () => pump,
    async disconnect() {
      controller.abort();
      await pump;
    },
  };
}
