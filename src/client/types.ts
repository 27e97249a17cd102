/** The API's types, by name, from the generated OpenAPI types (src/client/generated/openapi.ts). */
import type { components, paths } from './generated/openapi.js';

export type { components, paths };

type Schemas = components['schemas'];

export type Problem = Schemas['Problem'];
export type ErrorCode = Problem['error'];

export type Project = Schemas['Project'];
export type ProjectCreate = Schemas['ProjectCreate'];
export type ProjectPatch = Schemas['ProjectPatch'];
export type Outcome = Schemas['Outcome'];
export type OutcomeCreate = Schemas['OutcomeCreate'];
export type OutcomePatch = Schemas['OutcomePatch'];
export type ContextItem = Schemas['ContextItem'];
export type ContextItemCreate = Schemas['ContextItemCreate'];
export type Decision = Schemas['Decision'];
export type DecisionCreate = Schemas['DecisionCreate'];
export type DecisionPatch = Schemas['DecisionPatch'];
export type Issue = Schemas['Issue'];
export type IssueCreate = Schemas['IssueCreate'];
export type IssuePatch = Schemas['IssuePatch'];
export type IssueStatus = Issue['status'];
export type TimeEntry = Schemas['TimeEntry'];
export type TimeEntryCreate = Schemas['TimeEntryCreate'];
export type TimeEntryPatch = Schemas['TimeEntryPatch'];
export type Webhook = Schemas['Webhook'];
export type WebhookCreate = Schemas['WebhookCreate'];
export type WebhookPatch = Schemas['WebhookPatch'];
export type WebhookCreated = Schemas['WebhookCreated'];
export type WebhookRotated = Schemas['WebhookRotated'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookTestResult = Schemas['WebhookTestResult'];
export type SignalEvent = Schemas['SignalEvent'];
export type EventType = SignalEvent['type'];

/** The body of a webhook delivery, by event type. */
export type WebhookEvent =
  | Schemas['ProjectCreatedEvent']
  | Schemas['ProjectUpdatedEvent']
  | Schemas['OutcomeCreatedEvent']
  | Schemas['OutcomeUpdatedEvent']
  | Schemas['OutcomeDeletedEvent']
  | Schemas['OutcomeShippedEvent']
  | Schemas['ContextCreatedEvent']
  | Schemas['ContextDeletedEvent']
  | Schemas['DecisionCreatedEvent']
  | Schemas['DecisionUpdatedEvent']
  | Schemas['IssueCreatedEvent']
  | Schemas['IssueUpdatedEvent']
  | Schemas['IssueStatusChangedEvent']
  | Schemas['TimeEntryCreatedEvent']
  | Schemas['TimeEntryUpdatedEvent']
  | Schemas['TimeEntryDeletedEvent']
  | Schemas['WebhookCreatedEvent']
  | Schemas['WebhookUpdatedEvent']
  | Schemas['WebhookDeletedEvent']
  | Schemas['WebhookTestEvent'];

/** The query parameters of `GET <path>`, as the OpenAPI document declares them. */
export type ListQuery<P extends keyof paths> = paths[P] extends {
  get: { parameters: { query?: infer Q } };
}
  ? NonNullable<Q>
  : never;

/** Filters of each family's list. `cursor` is the client's business: it follows them for you. */
export type ProjectFilters = Omit<ListQuery<'/api/v1/projects'>, 'cursor'>;
export type OutcomeFilters = Omit<ListQuery<'/api/v1/outcomes'>, 'cursor'>;
export type ContextFilters = Omit<ListQuery<'/api/v1/context'>, 'cursor'>;
export type DecisionFilters = Omit<ListQuery<'/api/v1/decisions'>, 'cursor'>;
export type IssueFilters = Omit<ListQuery<'/api/v1/issues'>, 'cursor'>;
export type TimeEntryFilters = Omit<ListQuery<'/api/v1/time-entries'>, 'cursor'>;
export type WebhookFilters = Omit<ListQuery<'/api/v1/webhooks'>, 'cursor'>;
export type DeliveryFilters = Omit<ListQuery<'/api/v1/webhooks/{id}/deliveries'>, 'cursor'>;
export type SignalFilters = Omit<ListQuery<'/api/v1/signals'>, 'cursor'>;

/** One page of a list: `{ data, nextCursor, total }` (time entries add `totalMinutes`). */
export interface Page<T> {
  data: T[];
  /** Pass to `.page(cursor)` for the next page; null on the last one. */
  nextCursor: string | null;
  /** Items matching the filters, over all pages. */
  total: number;
}
export type TimeEntryPage = Schemas['TimeEntryPage'];

/** A single resource as read or written, with the `ETag` of that version (for `If-Match`). */
export type Tagged<T> = T & {
  /** The `ETag` header of the answer, e.g. `"3"`: pass it as `ifMatch`. Not enumerable, so not serialized. */
  readonly etag: string;
};
