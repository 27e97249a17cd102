import type { z } from 'zod';
import type { Route } from '../pipeline/route.js';
import type { CollectionDefinition, CollectionName } from '../port/index.js';
import type { TransferFamily } from '../transfer/family.js';

/** The collection a family stores its records in, and how adapters keep it. */
export interface FamilyCollection<Name extends CollectionName> {
  name: Name;
  /** The SQL adapters' table (`time_entries` for `timeEntries`). */
  table: string;
  /** What adapters index and search (see CollectionDefinition). */
  definition: CollectionDefinition<Name>;
}

/**
 * One resource family, all it brings to the tracker in one value: the route table, the event
 * catalogue, the OpenAPI document, the adapters' collections, `copy` and export/import are
 * derived from the list of these (`families/index.ts`, a new one going in `resources.ts`), so a
 * new family registers nowhere else.
 */
export interface Family {
  /** Its name: its folder, and the family of its export records where it has some. */
  name: string;
  /** Its endpoints under /api/v1, in the order the API reference shows them. */
  routes: readonly Route[];
  /** What it groups: the heading of its section (its routes' tag) in the API reference. */
  about?: string;
  /** Its signal and webhook event types (CONTRACT §6), by what happened. */
  events?: Readonly<Record<string, string>>;
  /** What `data.object` of its events holds, under the events' prefix (`comment` of `comment.created`). */
  eventObject?: { prefix: string; schema: z.ZodType };
  /**
   * The zod schemas its routes answer with (`responses`) and accept (`requests`), under their
   * names in the OpenAPI document's components: generated clients get these type names.
   */
  schemas?: { responses?: Record<string, z.ZodType>; requests?: Record<string, z.ZodType> };
  /** The collection its records are stored in, for a family stored as one. */
  collection?: { [Name in CollectionName]: FamilyCollection<Name> }[CollectionName];
  /** How its records are written to an export file and read back from one. */
  transfer?: TransferFamily;
}

/** A family's definition, its literal types kept (the adapters' collection fields are typed from them). */
export const defineFamily = <const F extends Family>(family: F): F => family;
