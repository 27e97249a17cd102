import type { CollectionName } from '../port/index.js';
import type { Family } from './family.js';
import { families } from './index.js';

type Stored = NonNullable<Family['collection']>;
type DefinitionOf<Name extends CollectionName> = Extract<
  (typeof families)[number],
  { collection: { name: Name } }
>['collection']['definition'];

/** The families stored as collections, in the family list's order. */
const collections = (families as readonly Family[]).flatMap((family): Stored[] =>
  family.collection ? [family.collection] : [],
);

const byName = <Value>(value: (collection: Stored) => Value): Record<string, Value> =>
  Object.fromEntries(collections.map((collection) => [collection.name, value(collection)]));

/**
 * What an adapter must know of each collection (which fields it filters, searches, ranges, sums
 * and sorts on), taken from the families' definitions with their literal field names.
 */
export const collectionDefinitions = byName((collection) => collection.definition) as {
  [Name in CollectionName]: DefinitionOf<Name>;
};

/** The SQL adapters' table of each collection (`timeEntries` → `time_entries`). */
export const collectionTables = byName((collection) => collection.table) as Record<CollectionName, string>;

/** The collections in the family list's order (referenced families before those naming them). */
export const collectionNames: readonly CollectionName[] = collections.map((collection) => collection.name);
