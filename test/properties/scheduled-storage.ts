import type { Scheduler } from 'fast-check';
import type { Storage, StorageTx } from '../../src/core/index.js';

/**
 * Wraps a storage so that a fast-check scheduler decides when each transaction starts and
 * when each port call inside it runs: concurrent requests then interleave in every order the
 * scheduler picks, instead of in the one order the event loop happens to give.
 * Until `use(scheduler)` is called, calls pass straight through (for seeding).
 */
export function scheduledStorage(inner: Storage): {
  storage: Storage;
  use(scheduler: Scheduler | null): void;
} {
  let scheduler: Scheduler | null = null;
  const gate = <T>(label: string, run: () => Promise<T>): Promise<T> =>
    scheduler ? scheduler.schedule(Promise.resolve(label), label).then(run) : run();

  const wrapStore = <S extends object>(name: string, store: S): S =>
    new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => gate(`${name}.${String(property)}`, () => value.apply(target, args));
      },
    });

  const wrapTx = (tx: StorageTx): StorageTx => {
    const collections = Object.fromEntries(
      Object.entries(tx.collections).map(([name, collection]) => [name, wrapStore(name, collection)]),
    ) as unknown as StorageTx['collections'];
    return {
      tenancy: wrapStore('tenancy', tx.tenancy),
      tokens: wrapStore('tokens', tx.tokens),
      collections,
      labels: wrapStore('labels', tx.labels),
      overdue: wrapStore('overdue', tx.overdue),
      signals: wrapStore('signals', tx.signals),
      idempotency: wrapStore('idempotency', tx.idempotency),
      counters: wrapStore('counters', tx.counters),
      webhooks: wrapStore('webhooks', tx.webhooks),
      deliveries: wrapStore('deliveries', tx.deliveries),
      sessions: wrapStore('sessions', tx.sessions),
      watches: wrapStore('watches', tx.watches),
      dump: wrapStore('dump', tx.dump),
      busyMs: () => tx.busyMs(),
    };
  };

  return {
    storage: {
      transaction: (fn, options) =>
        gate('transaction', () => inner.transaction((tx) => fn(wrapTx(tx)), options)),
      close: () => inner.close(),
    },
    use(next) {
      scheduler = next;
    },
  };
}
