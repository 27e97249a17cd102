import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, inProcessFetch, type SignalEvent } from '../../src/client/index.js';
import { type ClientFixture, clientFixture, modes } from './harness.js';
import { cuttableFetch, resumeSpy } from './stream-faults.js';
import { tcpProxy } from './tcp-proxy.js';

describe.each(modes)('the signal stream iterator (%s)', (mode) => {
  let f: ClientFixture;
  let direct: Client;
  let cutAll: () => void;
  let spy: ReturnType<typeof resumeSpy>;
  let streaming: Client;
  let closeProxy = async () => {};
  beforeAll(async () => {
    f = await clientFixture(mode);
    direct = f.client();
    if (f.url === null) {
      const cuttable = cuttableFetch(inProcessFetch(f.tracker));
      spy = resumeSpy(cuttable.fetch);
      cutAll = cuttable.cutAll;
      streaming = f.client({ fetch: spy.fetch });
    } else {
      const proxy = await tcpProxy(Number(new URL(f.url).port));
      spy = resumeSpy((request) => fetch(request));
      cutAll = proxy.cutAll;
      closeProxy = proxy.close;
      streaming = f.client({ baseUrl: proxy.url, fetch: spy.fetch });
    }
  });
  afterAll(async () => {
    await closeProxy();
    await f.close();
  });

  const create = (title: string) => direct.issues.create({ projectId: f.ws.projectId, title });
  const titleOf = (event: unknown) =>
    ((event as SignalEvent | undefined)?.data.object as { title?: string } | undefined)?.title;

  it('yields each event once across a forced disconnect, resuming with Last-Event-ID', async () => {
    const marker = await create('marker');
    const [markerEvent] = await direct.signals.list({ resourceId: marker.id }).toArray();
    const stream = streaming.signals.stream({
      types: ['issue.created'],
      after: markerEvent?.sequence ?? 0,
      reconnectDelayMs: 20,
    });
    const yielded: SignalEvent[] = [];
    const next = async () => {
      const { value } = await stream.next();
      if (value) yielded.push(value);
      return titleOf(value);
    };

    await create('A');
    await create('B');
    expect([await next(), await next()]).toEqual(['A', 'B']);

    cutAll();
    await create('C');
    await create('D');
    expect([await next(), await next()]).toEqual(['C', 'D']);
    await create('E');
    expect(await next()).toBe('E');
    await stream.return();

    expect(new Set(yielded.map((e) => e.id)).size).toBe(5);
    expect(spy.lastEventIds.length).toBeGreaterThanOrEqual(2);
    expect(spy.lastEventIds[0]).toBeNull();
    expect(spy.lastEventIds[1]).toBe(yielded[1]?.id);
  });

  it('does not yield again the events a server repeats after a reconnection', async () => {
    const stream = streaming.signals.stream({ types: ['issue.created'], reconnectDelayMs: 20 });
    const first = stream.next();
    // The stream starts at the newest event when it connects: wait until it has, via a first event.
    let firstEvent: SignalEvent | undefined;
    while (!firstEvent) {
      await create('F');
      firstEvent =
        (await Promise.race([first, new Promise<null>((r) => setTimeout(() => r(null), 100))]))?.value ??
        undefined;
    }
    const rest: (string | undefined)[] = [];
    for (;;) {
      await create('G');
      const { value } = await stream.next();
      rest.push(titleOf(value));
      if (titleOf(value) === 'G') break;
    }
    const beforeCut = (await direct.signals.list({ types: ['issue.created'] }).toArray()).at(-1);

    spy.resumeNextAfter(firstEvent.id);
    cutAll();
    await create('H');
    const { value } = await stream.next();
    await stream.return();
    // The server resent everything after the first event (the F's and G); only H is new.
    expect(spy.lastEventIds.at(-1)).toBe(firstEvent.id);
    expect(titleOf(value)).toBe('H');
    expect(value?.sequence).toBeGreaterThan(beforeCut?.sequence ?? Number.POSITIVE_INFINITY);
  });

  it('throws what reconnecting cannot fix, such as a token that is not valid', async () => {
    const stranger = f.client(f.url === null ? { token: 'cn_nope' } : { token: 'cn_nope', baseUrl: f.url });
    const stream = stranger.signals.stream();
    await expect(stream.next()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('ends when its signal aborts', async () => {
    const controller = new AbortController();
    const stream = streaming.signals.stream({ signal: controller.signal });
    const pending = stream.next();
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
