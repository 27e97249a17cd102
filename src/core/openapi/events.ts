import { z } from 'zod';
import { type EventType, eventTypes } from '../families/events.js';
import type { Family as FamilyDefinition } from '../families/family.js';
import { families } from '../families/index.js';
import { issueSchema } from '../families/issues/schema.js';
import { relationExamples } from '../families/relations/examples.js';
import { idOf, timestampOut } from '../families/shared/schema.js';
import type { Route } from '../pipeline/route.js';

type Family = EventType extends `${infer F}.${string}` ? F : never;

/** What `data.object` holds per family: the resource after the change (as it was, for deletions). */
const objectOf = new Map<string, z.ZodType>(
  (families as readonly FamilyDefinition[]).flatMap((family) =>
    family.eventObject ? [[family.eventObject.prefix, family.eventObject.schema] as const] : [],
  ),
);

const testObject = z.strictObject({ webhookId: idOf('wh'), message: z.string() });

const previous = z.record(z.string(), z.unknown()).describe('The old values of the fields that changed');

/** The body a subscriber receives for one event type: `{ id, type, occurredAt, data }` (CONTRACT §4). */
export function eventPayloadSchema(type: EventType): z.ZodType {
  const family = type.slice(0, type.indexOf('.')) as Family;
  const object = type === 'webhook.test' ? testObject : objectOf.get(family);
  if (!object) throw new Error(`no family declares the object of ${type} events (its eventObject)`);
  const data =
    type === 'issue.status_changed'
      ? z.strictObject({
          object,
          previous: z.strictObject({ status: issueSchema.shape.status }),
          comment: z.string().optional().describe('The comment sent with the transition'),
          commentId: idOf('cmt')
            .optional()
            .describe('The comment the transition made of it (see comment.created)'),
        })
      : type === 'webhook.updated'
        ? z.strictObject({ object, previous, secretRotated: z.literal(true).optional() })
        : type.endsWith('.updated')
          ? z.strictObject({ object, previous })
          : z.strictObject({ object });
  return z.strictObject({
    id: z.uuid().describe('The event id, also sent as X-Service-Event-Id; the same on every retry'),
    type: z.literal(type),
    occurredAt: timestampOut,
    data,
  });
}

/** `issue.status_changed` → `IssueStatusChangedEvent`. */
export const eventComponentName = (type: EventType): string =>
  `${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Event`;

/** One named payload schema per event type of the catalog. */
export const eventPayloadSchemas: Record<string, z.ZodType> = Object.fromEntries(
  eventTypes.map((type) => [eventComponentName(type), eventPayloadSchema(type)]),
);

/**
 * Where each family's items live, to find their examples in the route table: the collection whose
 * `GET <collection>/:id` the family serves. A family with no such route (relations: no route reads
 * one relation alone) has '', and its events' example is its own.
 */
const collectionOf: Record<string, string> = Object.fromEntries(
  (families as readonly FamilyDefinition[]).flatMap((family) => {
    if (!family.eventObject) return [];
    const read = family.routes.find((route) => route.method === 'GET' && /^\/[a-z-]+\/:id$/.test(route.path));
    return [[family.eventObject.prefix, read ? read.path.slice(0, -'/:id'.length) : '']];
  }),
);

type Item = Record<string, unknown>;

/**
 * One example payload per event type, made from the examples of the routes that cause it: the
 * item a read answers, and for `.updated` the answer of the PATCH example with the old values of
 * the fields it sent.
 */
export function eventExamples(routes: readonly Route[]): Record<string, unknown> {
  const exampleOf = (method: string, path: string) =>
    routes.find((route) => route.method === method && route.path === path)?.examples;
  const event = (type: EventType, data: { object: Item; previous?: Item }) => ({
    id: '3b398980-be51-4486-ad6e-f75a9877356a',
    type,
    occurredAt: String(data.object.updatedAt ?? '2026-11-22T10:00:00.000Z'),
    data,
  });
  return Object.fromEntries(
    eventTypes.map((type) => {
      const family = type.slice(0, type.indexOf('.')) as Family;
      const item = (
        family === 'issue_relation'
          ? relationExamples.stored
          : (exampleOf('GET', `${collectionOf[family]}/:id`)?.response ?? {})
      ) as Item;
      if (type === 'webhook.test') {
        const message = 'This is a test delivery from outcome-tracker.';
        return [type, event(type, { object: { webhookId: item.id, message } })];
      }
      if (type === 'issue.status_changed') {
        const moved = exampleOf('POST', '/issues/:id/transition')?.response as Item;
        return [type, event(type, { object: moved, previous: { status: item.status } })];
      }
      if (type.endsWith('.archived')) {
        const archived = exampleOf('POST', `${collectionOf[family]}/:id/archive`)?.response as Item;
        return [type, event(type, { object: archived })];
      }
      if (type.endsWith('.updated')) {
        const patch = exampleOf('PATCH', `${collectionOf[family]}/:id`);
        const sent = Object.keys((patch?.request ?? {}) as Item);
        const previous = Object.fromEntries(sent.map((field) => [field, item[field]]));
        return [type, event(type, { object: (patch?.response as Item | undefined) ?? item, previous })];
      }
      return [type, event(type, { object: item })];
    }),
  );
}
