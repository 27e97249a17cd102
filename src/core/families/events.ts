import { webhookEvents, webhookTestEvent } from '../webhooks/events.js';
import { resourceFamilies } from './resources.js';

/** The event types one family declares, as literal types. */
type EventsOf<F> = F extends { events: infer Events } ? Events[keyof Events] : never;

/** Every event type of the catalogue below, as one union of literal types. */
type Catalogued =
  | EventsOf<(typeof resourceFamilies)[number]>
  | (typeof webhookEvents)[keyof typeof webhookEvents]
  | typeof webhookTestEvent;

/**
 * The catalog of event types (CONTRACT §6): what signals carry and webhooks subscribe to. Made of
 * the resource families' `events` (resources.ts) rather than of the whole family list, since the
 * webhook and signal schemas validate against it and are part of that list; a test holds it equal
 * to the list's events.
 */
export const eventTypes = [
  ...(resourceFamilies as readonly { events?: Readonly<Record<string, string>> }[]).flatMap((family) =>
    Object.values(family.events ?? {}),
  ),
  ...Object.values(webhookEvents),
  webhookTestEvent,
] as unknown as readonly [Catalogued, ...Catalogued[]];
export type EventType = (typeof eventTypes)[number];

/** The validation message for a type outside the catalog, naming it and what is accepted instead. */
export const unknownEventType =
  (accepted: string) =>
  (issue: { input: unknown }): string =>
    `unknown event type ${JSON.stringify(issue.input)}: expected ${accepted}one of ${eventTypes.join(', ')}`;
