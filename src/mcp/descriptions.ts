/**
 * What each tool says to an agent, by the operationId of its route: what it is for, when to use
 * it, and what comes back. The API's own descriptions are written for HTTP clients (headers,
 * status codes); an agent sends arguments, so these name only arguments and results. How to retry
 * safely is said once, by the `idempotencyKey` and `version` arguments themselves.
 */
export const agentDescriptions: Readonly<Record<string, string>> = {
  listProjects:
    "Lists the workspace's projects, newest first, or those matching `q`. Use it to find a project's key (APO), which issue keys start with. Answers `{ data, nextCursor, total }`: pass `nextCursor` as `cursor` for the next page.",
  createProject:
    'Creates a project. Without a `key`, one is made from the name (Apollo → APO); issues of the project are numbered under it (APO-1). Answers the project.',
  getProject: 'Reads one project by id or key (APO). Answers the project with its `version`.',
  updateProject:
    'Renames a project or changes its description; its key never changes. Answers the project at its new `version`.',

  listOutcomes:
    "Lists the workspace's outcomes (the results a project works towards), narrowed by project, status or owner, or matching `q`. Archived ones are left out unless `archived` says otherwise. Answers `{ data, nextCursor, total }`.",
  createOutcome:
    'Creates an outcome in a project: a result to reach, with an optional owner and due date. Issues, decisions and time entries can then point at it. Answers the outcome.',
  getOutcome: 'Reads one outcome by id. Answers the outcome with its `version`.',
  updateOutcome:
    'Changes the fields you send of an outcome (title, description, status, owner, due date) and keeps the others. Set `status` to `shipped` when it is reached. Answers the outcome at its new `version`.',
  deleteOutcome:
    'Deletes an outcome that nothing refers to; one that issues, decisions or time entries still point at is refused with resource_in_use (archive it instead). Answers nothing on success.',
  archiveOutcome:
    'Archives an outcome: lists leave it out, but it can still be read, changed and brought back. Answers the outcome.',
  unarchiveOutcome: 'Brings back an archived outcome, so lists show it again. Answers the outcome.',
  getOutcomeSummary:
    'Says where an outcome stands, in one consistent read: its issues by status and severity, its open blockers, the minutes logged (by user and by week), its decisions by status and its last activity. Use it before reporting progress.',

  listContextItems:
    'Lists the documents, links and notes attached to outcomes, narrowed by outcome or kind. Answers `{ data, nextCursor, total }`.',
  createContextItem:
    'Attaches background to an outcome: a `document` or `link` (with a `url`) or a `note` (with a `body`). Answers the context item.',
  getContextItem: 'Reads one context item by id. Answers it with its `version`.',
  deleteContextItem: 'Deletes a context item. Answers nothing on success.',

  listDecisions:
    "Lists the workspace's decisions (what was decided, why, and by whom), narrowed by project, outcome or status. Answers `{ data, nextCursor, total }`.",
  createDecision:
    'Records a decision in a project: its title, `rationale`, participants and status, optionally tied to an outcome or superseding an earlier decision. Answers the decision.',
  getDecision: 'Reads one decision by id. Answers the decision with its `version`.',
  updateDecision:
    'Changes the fields you send of a decision and keeps the others: accept or reject it with `status`, or point `supersededBy` at the decision that replaces it. Answers the decision at its new `version`.',

  listIssues:
    "Lists the workspace's issues, narrowed by project, outcome, status, severity, assignee, parent or labels (`labels`: all of them, `labelsAny`: any), or matching `q`. Answers `{ data, nextCursor, total }`: pass `nextCursor` as `cursor` for the next page.",
  createIssue:
    'Creates an open issue in a project (by its key, APO, or id); it is numbered in that project and gets a key such as APO-12. Answers the issue, with its `key` and `version`.',
  getIssue: 'Reads one issue by its key (APO-12) or id. Answers the issue with its `status` and `version`.',
  updateIssue:
    'Changes the fields you send of an issue (title, description, severity, outcome, assignee, labels) and keeps the others. Its status changes only with transition_issue. Answers the issue at its new `version`.',
  transitionIssue:
    'Moves an issue to another status (`to`), with an optional `comment`. A move its workflow does not allow is refused with invalid_transition, which lists the statuses reachable from the current one. Answers the issue.',
  archiveIssue:
    'Archives an issue: lists leave it out, but it can still be read, changed and brought back. Answers the issue.',
  unarchiveIssue: 'Brings back an archived issue, so lists show it again. Answers the issue.',

  listIssueRelations:
    "Lists an issue's relations from both ends (blocks, blocked_by, relates_to, duplicates, parent_of…), each with the issue at the other end. Answers `{ data, nextCursor, total }`.",
  createIssueRelation:
    'Relates an issue to another (`issueId`, its key or id) as `type` says: blocks, blocked_by, relates_to, duplicates, duplicate_of, parent_of or child_of. Refused for a cycle, a second parent or a relation that exists. Answers the relation.',
  getIssueRelation: 'Reads one relation of an issue, its type as seen from that issue. Answers the relation.',
  deleteIssueRelation: 'Removes a relation between two issues. Answers nothing on success.',
  listLabels:
    "Lists the labels the workspace's issues carry, with how many issues carry each. Use it before filtering list_issues by `labels`. Answers `{ data, nextCursor, total }`.",

  listTimeEntries:
    'Lists the time logged, narrowed by outcome, issue, user or dates (`from`, `to`). Answers `{ data, nextCursor, total }`.',
  createTimeEntry:
    'Logs minutes of work against an outcome (and optionally one of its issues) on a date. Answers the time entry.',
  getTimeEntry: 'Reads one time entry by id. Answers it with its `version`.',
  updateTimeEntry:
    'Changes the fields you send of a time entry and keeps the others. Answers it at its new `version`.',
  deleteTimeEntry: 'Deletes a time entry. Answers nothing on success.',

  listComments:
    'Lists comments, oldest first: one thread with `issueId`, `outcomeId` or `decisionId`, or one author with `authorId`. Answers `{ data, nextCursor, total }`.',
  createComment:
    "Comments on exactly one issue, outcome or decision (`issueId`, `outcomeId` or `decisionId`), as the token's user. Answers the comment.",
  getComment: 'Reads one comment by id. Answers it with its `version`.',
  updateComment:
    'Rewrites the body of a comment; only its author or an admin may. Answers the comment at its new `version`.',
  deleteComment: 'Deletes a comment; only its author or an admin may. Answers nothing on success.',

  listViews:
    "Lists the workspace's saved views (named queries on issues, outcomes or decisions, shared by everyone), narrowed by `resource`. Answers `{ data, nextCursor, total }`.",
  createView:
    'Saves a named `query` (the query language of list_issues, list_outcomes and list_decisions: `status:open label:bug`) on a `resource` for the whole workspace. A malformed query is refused with validation_failed naming the term and its offset. Answers the view.',
  getView: 'Reads one saved view by id: its name, resource and query. Answers the view with its `version`.',
  updateView:
    'Renames a saved view or changes its `query` or `resource` (checked as create_view checks them). Answers the view at its new `version`.',
  deleteView: 'Deletes a saved view for the whole workspace. Answers nothing on success.',
  listViewItems:
    "Runs a saved view: one page of its resource's list for its query, as it stands now. Answers `{ data, nextCursor, total }`: pass `nextCursor` as `cursor` for the next page.",

  watchIssue:
    "Makes the token's user watch an issue (by id or key, APO-12): changes others make to it then appear in list_notifications. Watching twice is the same as once. Answers the watch.",
  unwatchIssue: "Stops the token's user watching an issue. Answers nothing on success.",
  listIssueWatchers:
    'Lists who watches an issue (its creator, assignee, commenters and anyone mentioned or watching by choice). Answers `{ data, nextCursor, total }`.',
  watchOutcome:
    "Makes the token's user watch an outcome: changes others make to it then appear in list_notifications. Answers the watch.",
  unwatchOutcome: "Stops the token's user watching an outcome. Answers nothing on success.",
  listOutcomeWatchers: 'Lists who watches an outcome. Answers `{ data, nextCursor, total }`.',
  listNotifications:
    "Lists what others changed on the issues and outcomes the token's user watches (comments, transitions, assignments, due dates passed), newest last; `unread: true` for only those after the read marker. Each names the event and the item. Answers `{ data, nextCursor, total }`.",
  markNotificationsRead:
    "Moves the token's user's read marker up to a notification (`upTo`, its id or sequence); it never moves back. Answers the marker.",

  listMembers: "Lists the workspace's members and their roles. Answers `{ data, nextCursor, total }`.",
  createMember:
    'Adds a user to the workspace by email with a role, making the user if needed; one already a member is refused with already_member. Answers the member.',
  getMember: 'Reads one member by id. Answers the member with its `version`.',
  updateMember:
    "Changes a member's role; the last admin cannot be demoted. Answers the member at its new `version`.",
  deleteMember:
    'Removes a member from the workspace; the last admin cannot be removed. Answers nothing on success.',
  inviteMember:
    'Adds a user by email and answers a one-time `inviteUrl` (valid 7 days) with which they set a password. No email is sent: pass the link on. A retry with the same `idempotencyKey` answers `inviteUrl: null`.',

  listWebhooks: "Lists the workspace's webhooks. Answers `{ data, nextCursor, total }`.",
  createWebhook:
    'Subscribes an https:// URL to event types. The answer holds the signing `secret`, shown only once (a retry with the same `idempotencyKey` answers `secret: null`). Answers the webhook.',
  getWebhook: 'Reads one webhook by id. Answers it with its `version`.',
  updateWebhook:
    'Changes the fields you send of a webhook; `status: disabled` stops deliveries, `active` resumes them. Answers the webhook at its new `version`.',
  deleteWebhook: 'Deletes a webhook. Answers nothing on success.',
  rotateWebhookSecret:
    'Issues a new signing secret, shown only in this answer; for 24 hours deliveries are also signed with the old one.',
  testWebhook: 'Sends one signed test event to the webhook now. Answers what the receiver did.',
  replayWebhook:
    'Queues again the events after the sequence `after` (up to `until`, of `types`) for the webhook; an event already delivered is not queued twice. Answers how many were queued and `nextAfter` when more remain.',
  listWebhookDeliveries:
    'Lists the deliveries made to a webhook, with their state and attempts. Answers `{ data, nextCursor }`.',
  getWebhookDelivery: "Reads one delivery with the payload sent and each attempt with the receiver's answer.",
  retryWebhookDelivery:
    'Sends a delivery again now, with a fresh retry schedule; one being sent at that moment is refused with delivery_in_flight.',
  getWebhookDeliveryStats: 'Counts the attempts that succeeded and failed in each of the last `hours` hours.',

  listSignals:
    "Reads the account's events (every change made), oldest first, narrowed by `types` or `resourceId`. Pass `after` (a sequence) to read what happened since then. Answers `{ data, nextCursor, nextAfter }`: call again with `after: nextAfter` to keep up.",
  runBatch:
    "Applies up to 100 changes (POST, PATCH or DELETE on a path such as /issues/APO-12/transition, each with its `body`) in one transaction: all apply or none does. Answers each result in order, or the failing operation's error with `failedIndex`.",
};
