import type { SignalEvent } from '../model.js';
import type { StorageTx } from '../port/index.js';
import { commentSubject, endedWatches, mentionedEmails, newWatchers, notifyingSubject } from './rules.js';

/**
 * What an announced change does to watches, in its own transaction: it files a notifying signal
 * under its item (one row, however many watch it; the feeds are read from these and the signal
 * log, never written per watcher), starts the watches the change implies (the creator, the
 * assignee, the commenter, those a comment mentions), and ends the watches of an item or member
 * that is gone. An event that concerns no watch costs nothing but a look at its type.
 *
 * The watches start before the event is filed and at its time, so an assignee or a mentioned
 * member is told of the very event that made them a watcher (by someone else).
 */
export async function keepWatches(tx: StorageTx, event: SignalEvent): Promise<void> {
  const { accountId, workspaceId, occurredAt } = event;
  for (const watcher of newWatchers(event)) {
    if (watcher.reason === 'assignee' && watcher.userId !== event.actor.userId) {
      // Only a member watches: a user assigned who is not one (any longer) is told nothing.
      if (!(await tx.tenancy.getMembership(workspaceId, watcher.userId))) continue;
    }
    await tx.watches.start(accountId, {
      workspaceId,
      subjectType: watcher.subject.type,
      subjectId: watcher.subject.id,
      userId: watcher.userId,
      reason: watcher.reason,
      since: occurredAt,
    });
  }
  if (event.type === 'comment.created' || event.type === 'comment.updated') {
    await watchMentioned(tx, event);
  }
  const subject = notifyingSubject(event);
  if (subject) {
    await tx.watches.file({
      accountId,
      workspaceId,
      subjectId: subject.id,
      sequence: event.sequence,
      actorUserId: event.actor.userId,
      occurredAt,
    });
  }
  const ended = endedWatches(event);
  if (ended && 'subjectId' in ended) await tx.watches.removeSubject(accountId, workspaceId, ended.subjectId);
  if (ended && 'userId' in ended) await tx.watches.removeUser(accountId, workspaceId, ended.userId);
}

/** Members of the workspace a comment mentions (`@email`) watch what it is on. */
async function watchMentioned(tx: StorageTx, event: SignalEvent): Promise<void> {
  const comment = (event.data.object ?? {}) as Record<string, unknown>;
  const subject = commentSubject(comment);
  if (!subject || typeof comment.body !== 'string') return;
  for (const email of mentionedEmails(comment.body)) {
    const user = await tx.tenancy.getUserByEmail(email);
    if (!user || !(await tx.tenancy.getMembership(event.workspaceId, user.id))) continue;
    await tx.watches.start(event.accountId, {
      workspaceId: event.workspaceId,
      subjectType: subject.type,
      subjectId: subject.id,
      userId: user.id,
      reason: 'mentioned',
      since: event.occurredAt,
    });
  }
}
