/** The API's types, by name, from the generated OpenAPI types (src/client/generated/openapi.ts). */
import type { components, paths } from './generated/openapi.js';

export type { components, paths };

type Schemas = components['schemas'];
/** A named schema; interfaces extend it so editors and the reference show the name, not its fields. */
type Schema<Name extends keyof Schemas> = Schemas[Name];

export interface Problem extends Schema<'Problem'> {}
export type ErrorCode = Problem['error'];

export interface Project extends Schema<'Project'> {}
export interface ProjectCreate extends Schema<'ProjectCreate'> {}
export interface ProjectPatch extends Schema<'ProjectPatch'> {}
export interface Outcome extends Schema<'Outcome'> {}
export interface OutcomeSummary extends Schema<'OutcomeSummary'> {}
export interface OutcomeCreate extends Schema<'OutcomeCreate'> {}
export interface OutcomePatch extends Schema<'OutcomePatch'> {}
export interface ContextItem extends Schema<'ContextItem'> {}
export type ContextItemCreate = Schemas['ContextItemCreate'];
export interface Decision extends Schema<'Decision'> {}
export interface DecisionCreate extends Schema<'DecisionCreate'> {}
export interface DecisionPatch extends Schema<'DecisionPatch'> {}
export interface Issue extends Schema<'Issue'> {}
export interface IssueCreate extends Schema<'IssueCreate'> {}
export interface IssuePatch extends Schema<'IssuePatch'> {}
export type IssueStatus = Issue['status'];
export interface IssueRelation extends Schema<'IssueRelation'> {}
export interface Label extends Schema<'Label'> {}
export interface IssueRelationCreate extends Schema<'IssueRelationCreate'> {}
export interface TimeEntry extends Schema<'TimeEntry'> {}
export interface TimeEntryCreate extends Schema<'TimeEntryCreate'> {}
export interface TimeEntryPatch extends Schema<'TimeEntryPatch'> {}
export interface Comment extends Schema<'Comment'> {}
export interface CommentCreate extends Schema<'CommentCreate'> {}
export interface CommentPatch extends Schema<'CommentPatch'> {}
export interface SavedView extends Schema<'SavedView'> {}
export interface SavedViewCreate extends Schema<'SavedViewCreate'> {}
export interface SavedViewPatch extends Schema<'SavedViewPatch'> {}
/** What running a view lists: an issue, an outcome or a decision, as its `resource` says. */
export type SavedViewItem = Issue | Outcome | Decision;
export interface Member extends Schema<'Member'> {}
export interface MemberCreate extends Schema<'MemberCreate'> {}
export interface MemberPatch extends Schema<'MemberPatch'> {}
export interface MemberInvite extends Schema<'MemberInvite'> {}
export interface Webhook extends Schema<'Webhook'> {}
export interface WebhookCreate extends Schema<'WebhookCreate'> {}
export interface WebhookPatch extends Schema<'WebhookPatch'> {}
export interface WebhookCreated extends Schema<'WebhookCreated'> {}
export interface WebhookRotated extends Schema<'WebhookRotated'> {}
export interface WebhookDelivery extends Schema<'WebhookDelivery'> {}
export interface WebhookTestResult extends Schema<'WebhookTestResult'> {}
export interface WebhookReplay extends Schema<'WebhookReplay'> {}
export interface WebhookReplayResult extends Schema<'WebhookReplayResult'> {}
export interface SignalEvent extends Schema<'SignalEvent'> {}
export interface Batch extends Schema<'Batch'> {}
export interface BatchResults extends Schema<'BatchResults'> {}
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
  | Schemas['IssueOverdueEvent']
  | Schemas['OutcomeOverdueEvent']
  | Schemas['IssueRelationCreatedEvent']
  | Schemas['IssueRelationDeletedEvent']
  | Schemas['TimeEntryCreatedEvent']
  | Schemas['TimeEntryUpdatedEvent']
  | Schemas['TimeEntryDeletedEvent']
  | Schemas['CommentCreatedEvent']
  | Schemas['CommentUpdatedEvent']
  | Schemas['CommentDeletedEvent']
  | Schemas['ViewCreatedEvent']
  | Schemas['ViewUpdatedEvent']
  | Schemas['ViewDeletedEvent']
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
export type IssueRelationFilters = Omit<ListQuery<'/api/v1/issues/{id}/relations'>, 'cursor'>;
export type LabelFilters = Omit<ListQuery<'/api/v1/labels'>, 'cursor'>;
export type TimeEntryFilters = Omit<ListQuery<'/api/v1/time-entries'>, 'cursor'>;
export type CommentFilters = Omit<ListQuery<'/api/v1/comments'>, 'cursor'>;
export type SavedViewFilters = Omit<ListQuery<'/api/v1/views'>, 'cursor'>;
export type SavedViewItemFilters = Omit<ListQuery<'/api/v1/views/{id}/items'>, 'cursor'>;
export type MemberFilters = Omit<ListQuery<'/api/v1/members'>, 'cursor'>;
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
export interface TimeEntryPage extends Schema<'TimeEntryPage'> {}

/** A single resource as read or written, with the `ETag` of that version (for `If-Match`). */
export type Tagged<T> = T & {
  /** The `ETag` header of the answer, e.g. `"3"`: pass it as `ifMatch`. Not enumerable, so not serialized. */
  readonly etag: string;
};
