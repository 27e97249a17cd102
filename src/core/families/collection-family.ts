import type { z } from 'zod';
import type { Route } from '../pipeline/route.js';
import type { CollectionDefinition, CollectionName } from '../port/index.js';
import { type CollectionFamilyOptions, collectionTransfer } from '../transfer/family.js';
import type { Family } from './family.js';

/** What a family's definition must say: the rest of `CollectionDefinition`'s lists may be left out. */
type DefinitionGiven<Name extends CollectionName> = Pick<CollectionDefinition<Name>, 'filters' | 'sorts'> &
  Partial<Omit<CollectionDefinition<Name>, 'filters' | 'sorts'>>;

/** The definition with the lists it leaves out empty, its literal field names kept. */
type WithEmptyLists<D> = {
  readonly [List in keyof CollectionDefinition<CollectionName>]: List extends keyof D ? D[List] : readonly [];
};

/**
 * The definition in `CollectionDefinition`'s order, a list left out empty: most families only
 * filter and sort, few search, range, sum or index set fields.
 */
const withEmptyLists = <Name extends CollectionName, D extends DefinitionGiven<Name>>(given: D) =>
  ({
    filters: given.filters,
    search: given.search ?? [],
    ranges: given.ranges ?? [],
    sums: given.sums ?? [],
    notNull: given.notNull ?? [],
    sorts: given.sorts,
  }) as unknown as WithEmptyLists<D>;

/** A family's event types by what happened, its records' creation among them (imports announce it). */
type CreatedEvent = Readonly<Record<string, string>> & { created: string };

/** A family stored as one collection, as it declares itself (see `collectionFamily`). */
export interface CollectionFamilyDeclaration<
  Name extends CollectionName,
  D extends DefinitionGiven<Name>,
  Events extends CreatedEvent,
> {
  name: string;
  about?: string;
  routes: readonly Route[];
  events: Events;
  /** The signals' resource type, and the prefix of its events (`comment` of `comment.created`). */
  resourceType: string;
  /** Its record as the API answers it: its events' `data.object`, and an export's record. */
  schema: z.ZodType<Record<string, unknown>>;
  schemas: NonNullable<Family['schemas']>;
  collection: { name: Name; table: string; definition: D };
  /** How export files hold its records, beyond the collection, schema and events said above. */
  transfer: Omit<CollectionFamilyOptions<Name>, 'collection' | 'created' | 'resourceType' | 'schema'> & {
    /** The record as an export holds it, when it differs from the answered one. */
    schema?: z.ZodType<Record<string, unknown>>;
  };
}

/** The family, its collection's name and definition typed as declared (see `collections.ts`). */
type CollectionFamily<Name extends CollectionName, D, Events> = Omit<Family, 'collection' | 'events'> & {
  events: Events;
  collection: { name: Name; table: string; definition: WithEmptyLists<D> };
};

/**
 * A family whose records live in one collection. Its collection, its events' object and its
 * export records all name the same record, resource type and collection: each is said once here.
 */
export function collectionFamily<
  Name extends CollectionName,
  const D extends DefinitionGiven<Name>,
  Events extends CreatedEvent,
>(declared: CollectionFamilyDeclaration<Name, D, Events>): CollectionFamily<Name, D, Events> {
  const { collection, resourceType, schema } = declared;
  const family: Family = {
    name: declared.name,
    routes: declared.routes,
    ...(declared.about ? { about: declared.about } : {}),
    events: declared.events,
    eventObject: { prefix: resourceType, schema },
    schemas: declared.schemas,
    collection: {
      name: collection.name,
      table: collection.table,
      definition: withEmptyLists<Name, D>(collection.definition),
    } as Family['collection'],
    transfer: collectionTransfer<Name>({
      ...declared.transfer,
      collection: collection.name,
      schema: declared.transfer.schema ?? schema,
      created: declared.events.created,
      resourceType,
    }),
  };
  return family as CollectionFamily<Name, D, Events>;
}
