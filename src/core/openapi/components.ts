import type { z } from 'zod';
import { batchRequestSchema, batchResponseSchema } from '../families/batch/schema.js';
import {
  commentCreateSchema,
  commentPageSchema,
  commentPatchSchema,
  commentSchema,
} from '../families/comments/schema.js';
import { contextCreateSchema, contextItemSchema, contextPageSchema } from '../families/context/schema.js';
import {
  decisionCreateSchema,
  decisionPageSchema,
  decisionPatchSchema,
  decisionSchema,
} from '../families/decisions/schema.js';
import {
  issueCreateSchema,
  issuePageSchema,
  issuePatchSchema,
  issueSchema,
  issueTransitionSchema,
} from '../families/issues/schema.js';
import { labelPageSchema, labelSchema } from '../families/labels/schema.js';
import { memberInviteSchema } from '../families/members/invite.js';
import {
  memberCreateSchema,
  memberPageSchema,
  memberPatchSchema,
  memberSchema,
} from '../families/members/schema.js';
import {
  outcomeCreateSchema,
  outcomePageSchema,
  outcomePatchSchema,
  outcomeSchema,
} from '../families/outcomes/schema.js';
import { outcomeSummarySchema } from '../families/outcomes/summary.js';
import {
  projectCreateSchema,
  projectPageSchema,
  projectPatchSchema,
  projectSchema,
} from '../families/projects/schema.js';
import {
  relationCreateSchema,
  relationPageSchema,
  relationSchema,
  storedRelationSchema,
} from '../families/relations/schema.js';
import { dateOut, timestampOut } from '../families/shared/schema.js';
import { signalEventSchema, signalPageSchema } from '../families/signals/schema.js';
import {
  timeEntryCreateSchema,
  timeEntryPageSchema,
  timeEntryPatchSchema,
  timeEntrySchema,
} from '../families/time-entries/schema.js';
import { webhookReplayResultSchema, webhookReplaySchema } from '../families/webhooks/replay.js';
import {
  attemptSchema,
  deliveryDetailSchema,
  deliveryPageSchema,
  deliverySchema,
  deliveryStatsSchema,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookPageSchema,
  webhookPatchSchema,
  webhookRotatedSchema,
  webhookSchema,
  webhookTestResultSchema,
} from '../families/webhooks/schema.js';
import { eventPayloadSchemas } from './events.js';
import { problemSchema } from './problem.js';

/**
 * The names under which the zod schemas appear in `components.schemas`. Every response and
 * request body schema of the route table must be named here: the generator refuses anonymous ones,
 * so generated clients get readable type names.
 */
export const responseComponents: Record<string, z.ZodType> = {
  Timestamp: timestampOut,
  CalendarDate: dateOut,
  Problem: problemSchema,
  Project: projectSchema,
  ProjectPage: projectPageSchema,
  Outcome: outcomeSchema,
  OutcomePage: outcomePageSchema,
  ContextItem: contextItemSchema,
  ContextItemPage: contextPageSchema,
  Decision: decisionSchema,
  DecisionPage: decisionPageSchema,
  Issue: issueSchema,
  IssuePage: issuePageSchema,
  Label: labelSchema,
  LabelPage: labelPageSchema,
  IssueRelation: relationSchema,
  BatchResults: batchResponseSchema,
  IssueRelationPage: relationPageSchema,
  StoredIssueRelation: storedRelationSchema,
  TimeEntry: timeEntrySchema,
  TimeEntryPage: timeEntryPageSchema,
  Comment: commentSchema,
  CommentPage: commentPageSchema,
  Member: memberSchema,
  MemberPage: memberPageSchema,
  MemberInvite: memberInviteSchema,
  Webhook: webhookSchema,
  WebhookPage: webhookPageSchema,
  WebhookCreated: webhookCreatedSchema,
  WebhookRotated: webhookRotatedSchema,
  WebhookDelivery: deliverySchema,
  WebhookDeliveryPage: deliveryPageSchema,
  WebhookDeliveryDetail: deliveryDetailSchema,
  WebhookDeliveryAttempt: attemptSchema,
  WebhookDeliveryStats: deliveryStatsSchema,
  WebhookTestResult: webhookTestResultSchema,
  WebhookReplayResult: webhookReplayResultSchema,
  OutcomeSummary: outcomeSummarySchema,
  SignalEvent: signalEventSchema,
  SignalPage: signalPageSchema,
  ...eventPayloadSchemas,
};

/** Request bodies, converted as the input the API accepts (`io: 'input'`). */
export const requestComponents: Record<string, z.ZodType> = {
  ProjectCreate: projectCreateSchema,
  ProjectPatch: projectPatchSchema,
  OutcomeCreate: outcomeCreateSchema,
  OutcomePatch: outcomePatchSchema,
  ContextItemCreate: contextCreateSchema,
  DecisionCreate: decisionCreateSchema,
  DecisionPatch: decisionPatchSchema,
  IssueCreate: issueCreateSchema,
  IssuePatch: issuePatchSchema,
  IssueTransition: issueTransitionSchema,
  IssueRelationCreate: relationCreateSchema,
  Batch: batchRequestSchema,
  TimeEntryCreate: timeEntryCreateSchema,
  TimeEntryPatch: timeEntryPatchSchema,
  CommentCreate: commentCreateSchema,
  CommentPatch: commentPatchSchema,
  MemberCreate: memberCreateSchema,
  MemberPatch: memberPatchSchema,
  WebhookCreate: webhookCreateSchema,
  WebhookPatch: webhookPatchSchema,
  WebhookReplay: webhookReplaySchema,
};
