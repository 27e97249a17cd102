import { z } from 'zod';
import { type EventType, eventTypes } from '../events.js';
import { contextItemSchema } from '../families/context/schema.js';
import { decisionSchema } from '../families/decisions/schema.js';
import { issueSchema } from '../families/issues/schema.js';
import { memberSchema } from '../families/members/schema.js';
import { outcomeSchema } from '../families/outcomes/schema.js';
import { projectSchema } from '../families/projects/schema.js';
import { idOf, timestampOut } from '../families/shared/schema.js';
import { timeEntrySchema } from '../families/time-entries/schema.js';
import { webhookSchema } from '../families/webhooks/schema.js';

type Family = EventType extends `${infer F}.${string}` ? F : never;

/** What `data.object` holds per family: the resource after the change (as it was, for deletions). */
const objectOf: Record<Family, z.ZodType> = {
  project: projectSchema,
  outcome: outcomeSchema,
  context: contextItemSchema,
  decision: decisionSchema,
  issue: issueSchema,
  time_entry: timeEntrySchema,
  member: memberSchema,
  webhook: webhookSchema,
};

const testObject = z.strictObject({ webhookId: idOf('wh'), message: z.string() });

const previous = z.record(z.string(), z.unknown()).describe('The old values of the fields that changed');

/** The body a subscriber receives for one event type: `{ id, type, occurredAt, data }` (CONTRACT §4). */
export function eventPayloadSchema(type: EventType): z.ZodType {
  const family = type.slice(0, type.indexOf('.')) as Family;
  const object = type === 'webhook.test' ? testObject : objectOf[family];
  const data =
    type === 'issue.status_changed'
      ? z.strictObject({
          object,
          previous: z.strictObject({ status: issueSchema.shape.status }),
          comment: z.string().optional().describe('The comment sent with the transition'),
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
