import type { SignalEvent } from '../model.js';
import type { WatchedType, WatchReason } from '../port/index.js';

/**
 * What a signal means for watchers, in one place: which issue or outcome it is about when its
 * watchers are told of it, what kind of news it is, and who starts watching because of it. Pure
 * functions of the event, by its type: the families announce their changes as they always did,
 * and nothing here imports them.
 */

/** What a notification says happened to the watched item. */
export const notificationKinds = ['commented', 'transitioned', 'assigned', 'overdue'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** The item a notifying event is about, and what kind of news it is. */
export interface NotifyingSubject {
  type: WatchedType;
  id: string;
  kind: NotificationKind;
}

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  value !== null && typeof value === 'object' ? (value as Fields) : {};
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Whether the event's `previous` holds the field: the change changed it. */
const changed = (event: SignalEvent, field: string): boolean =>
  Object.hasOwn(fieldsOf(event.data.previous), field);

/**
 * The watched item the event tells its watchers about, or null when it tells them nothing: a
 * comment on an issue or outcome, an issue's transition or an outcome's status change, an issue
 * assigned (at creation or later) or an outcome given an owner, a due date passed.
 */
export function notifyingSubject(event: SignalEvent): NotifyingSubject | null {
  const object = fieldsOf(event.data.object);
  const id = event.resource.id;
  switch (event.type) {
    case 'comment.created': {
      const issueId = text(object.issueId);
      if (issueId) return { type: 'issue', id: issueId, kind: 'commented' };
      const outcomeId = text(object.outcomeId);
      return outcomeId ? { type: 'outcome', id: outcomeId, kind: 'commented' } : null;
    }
    case 'issue.status_changed':
      return { type: 'issue', id, kind: 'transitioned' };
    case 'issue.created':
      return text(object.assigneeId) ? { type: 'issue', id, kind: 'assigned' } : null;
    case 'issue.updated':
      return changed(event, 'assigneeId') && text(object.assigneeId)
        ? { type: 'issue', id, kind: 'assigned' }
        : null;
    case 'outcome.created':
      return text(object.ownerId) ? { type: 'outcome', id, kind: 'assigned' } : null;
    case 'outcome.updated':
      // `outcome.shipped` follows its `outcome.updated`: the update alone is the news.
      if (changed(event, 'status')) return { type: 'outcome', id, kind: 'transitioned' };
      return changed(event, 'ownerId') && text(object.ownerId)
        ? { type: 'outcome', id, kind: 'assigned' }
        : null;
    case 'issue.overdue':
      return { type: 'issue', id, kind: 'overdue' };
    case 'outcome.overdue':
      return { type: 'outcome', id, kind: 'overdue' };
    default:
      return null;
  }
}

/** A user the event makes a watcher of an item, and why. */
export interface NewWatcher {
  subject: { type: WatchedType; id: string };
  userId: string;
  reason: WatchReason;
}

/**
 * Who starts watching because of the event, besides those its comment mentions (see
 * `mentionedEmails`): the creator of an issue or outcome, its assignee or owner when one is
 * given, and whoever comments on it. The operator (no user) watches nothing.
 */
export function newWatchers(event: SignalEvent): NewWatcher[] {
  const object = fieldsOf(event.data.object);
  const actor = event.actor.userId;
  const out: NewWatcher[] = [];
  const add = (subject: NewWatcher['subject'], userId: string | null, reason: WatchReason) => {
    if (userId) out.push({ subject, userId, reason });
  };
  const self = (type: WatchedType) => ({ type, id: event.resource.id });
  switch (event.type) {
    case 'issue.created':
      add(self('issue'), actor, 'creator');
      add(self('issue'), text(object.assigneeId), 'assignee');
      break;
    case 'issue.updated':
      if (changed(event, 'assigneeId')) add(self('issue'), text(object.assigneeId), 'assignee');
      break;
    case 'outcome.created':
      add(self('outcome'), actor, 'creator');
      add(self('outcome'), text(object.ownerId), 'assignee');
      break;
    case 'outcome.updated':
      if (changed(event, 'ownerId')) add(self('outcome'), text(object.ownerId), 'assignee');
      break;
    case 'comment.created': {
      const subject = commentSubject(object);
      if (subject) add(subject, actor, 'commenter');
      break;
    }
  }
  return out;
}

/** The issue or outcome a comment (an event's object) is on, or null (a decision's comment). */
export function commentSubject(comment: Fields): { type: WatchedType; id: string } | null {
  const issueId = text(comment.issueId);
  if (issueId) return { type: 'issue', id: issueId };
  const outcomeId = text(comment.outcomeId);
  return outcomeId ? { type: 'outcome', id: outcomeId } : null;
}

/** How many distinct mentions of one comment are looked up: a comment cannot make unbounded work. */
export const maxMentions = 20;

/**
 * `@alice@example.com` in a comment: an @ not preceded by a word character (so an email address
 * alone mentions nobody), then an email address whose domain ends in letters (a full stop after
 * it ends the sentence, not the address).
 */
const mentionPattern =
  /(?<![\w.%+@-])@([A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;

/** The emails a comment body mentions (`@email`), lower-cased, distinct, at most `maxMentions`. */
export function mentionedEmails(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(mentionPattern)) {
    const email = match[1]?.toLowerCase();
    if (email) found.add(email);
    if (found.size >= maxMentions) break;
  }
  return [...found];
}

/** The watches the event ends: an outcome deleted takes its watchers with it, a member removed their watches. */
export function endedWatches(event: SignalEvent): { subjectId: string } | { userId: string } | null {
  if (event.type === 'outcome.deleted') return { subjectId: event.resource.id };
  if (event.type === 'member.deleted') return { userId: event.resource.id };
  return null;
}
