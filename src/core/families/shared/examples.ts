/**
 * The examples of one resource family, shown in the API reference: the bodies a client sends and
 * the resource each answers. Every one is validated against its schema by a test.
 */
export interface FamilyExamples {
  /** A create body, and the resource it makes. */
  create?: unknown;
  created?: unknown;
  /** The resource as a read answers it. */
  item: unknown;
  /** A PATCH body, and the resource after it. */
  update?: unknown;
  updated?: unknown;
  /** A first page of the list, when it answers more than `pageOf(item)` (a sum, say). */
  page?: unknown;
}

/** A first page holding one item, the shape every list answers. */
export const pageOf = (item: unknown) => ({ data: [item], nextCursor: null, total: 1 });
