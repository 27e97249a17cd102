import type { Page } from './types.js';

/**
 * A list query: iterate it with `for await` to get every matching item once, following
 * `nextCursor` page by page (`limit` sets the page size), or ask for one page with `.page()`.
 */
export class Listing<T, P extends Page<T> = Page<T>> implements AsyncIterable<T> {
  readonly #fetchPage: (cursor: string | undefined, signal?: AbortSignal) => Promise<P>;

  constructor(fetchPage: (cursor: string | undefined, signal?: AbortSignal) => Promise<P>) {
    this.#fetchPage = fetchPage;
  }

  /** One page: the first, or the one `cursor` (a `nextCursor` of an earlier page) points at. */
  page(cursor?: string | null, options: { signal?: AbortSignal } = {}): Promise<P> {
    return this.#fetchPage(cursor ?? undefined, options.signal);
  }

  /** Every page in turn, from the first until `nextCursor` is null. */
  async *pages(options: { signal?: AbortSignal } = {}): AsyncGenerator<P> {
    let cursor: string | undefined;
    do {
      const page = await this.#fetchPage(cursor, options.signal);
      yield page;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Every item of every page, fetched a page at a time as you iterate. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item in one array (fetches all pages: mind `total`). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
