import { webhookEvents, webhookTestEvent } from '../webhooks/events.js';
import { commentEvents } from './comments/events.js';
import { contextEvents } from './context/events.js';
import { decisionEvents } from './decisions/events.js';
import { issueEvents } from './issues/events.js';
import { memberEvents } from './members/events.js';
import { outcomeEvents } from './outcomes/events.js';
import { projectEvents } from './projects/events.js';
import { relationEvents } from './relations/events.js';
import { timeEntryEvents } from './time-entries/events.js';
import { viewEvents } from './views/events.js';

/**
 * The catalog of event types (CONTRACT §6): what signals carry and webhooks subscribe to. Made of
 * the families' `events.ts` rather than of the family list, since the webhook and signal schemas
 * validate against it and are part of that list; a test holds it equal to the list's events.
 */
export const eventTypes = [
  ...Object.values(projectEvents),
  ...Object.values(outcomeEvents),
  ...Object.values(contextEvents),
  ...Object.values(decisionEvents),
  ...Object.values(issueEvents),
  ...Object.values(relationEvents),
  ...Object.values(timeEntryEvents),
  ...Object.values(commentEvents),
  ...Object.values(viewEvents),
  ...Object.values(memberEvents),
  ...Object.values(webhookEvents),
  webhookTestEvent,
] as const;
export type EventType = (typeof eventTypes)[number];

/** The validation message for a type outside the catalog, naming it and what is accepted instead. */
export const unknownEventType =
  (accepted: string) =>
  (issue: { input: unknown }): string =>
    `unknown event type ${JSON.stringify(issue.input)}: expected ${accepted}one of ${eventTypes.join(', ')}`;
