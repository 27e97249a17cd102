type Fetch = (request: Request) => Promise<Response>;

/** A fetch whose open event streams can all be cut at once, as a dropped connection would. */
export function cuttableFetch(inner: Fetch) {
  const live = new Set<() => void>();
  const fetch: Fetch = async (request) => {
    const response = await inner(request);
    if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream'))
      return response;
    const reader = response.body.getReader();
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const cut = () => {
      controller?.error(new TypeError('terminated'));
      void reader.cancel().catch(() => {});
      live.delete(cut);
    };
    live.add(cut);
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      pull: async (c) => {
        const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (next.done) {
          live.delete(cut);
          c.close();
        } else c.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch,
    cutAll: () => {
      for (const cut of [...live]) cut();
    },
  };
}

/** Records the Last-Event-ID of each stream request, and lets a test rewrite the next one. */
export function resumeSpy(inner: Fetch) {
  const lastEventIds: (string | null)[] = [];
  let rewrite: string | null = null;
  const fetch: Fetch = (request) => {
    if (request.headers.get('accept') !== 'text/event-stream') return inner(request);
    const headers = new Headers(request.headers);
    if (rewrite !== null && headers.has('last-event-id')) {
      headers.set('last-event-id', rewrite);
      rewrite = null;
    }
    lastEventIds.push(headers.get('last-event-id'));
    return inner(new Request(request, { headers }));
  };
  return {
    fetch,
    lastEventIds,
    /** The next reconnection resumes after this id instead: the server then repeats events. */
    resumeNextAfter: (id: string) => {
      rewrite = id;
    },
  };
}
