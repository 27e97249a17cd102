import { commentEvents } from './families/comments/events.js';
import { contextEvents } from './families/context/events.js';
import { decisionEvents } from './families/decisions/events.js';
import { issueEvents } from './families/issues/events.js';
import { memberEvents } from './families/members/events.js';
import { outcomeEvents } from './families/outcomes/events.js';
import { projectEvents } from './families/projects/events.js';
import { relationEvents } from './families/relations/events.js';
import { timeEntryEvents } from './families/time-entries/events.js';
import { webhookEvents, webhookTestEvent } from './families/webhooks/events.js';

/** The catalog of event types (CONTRACT §6): what signals carry and webhooks subscribe to. */
export const eventTypes = [
  ...Object.values(projectEvents),
  ...Object.values(outcomeEvents),
  ...Object.values(contextEvents),
  ...Object.values(decisionEvents),
  ...Object.values(issueEvents),
  ...Object.values(relationEvents),
  ...Object.values(timeEntryEvents),
  ...Object.values(commentEvents),
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
