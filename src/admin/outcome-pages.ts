import type { Reply } from '../core/extension-kit.js';
import { noneMatchNames, sha256Hex } from '../core/extension-kit.js';
import { admitMember, isMemberReply, memberOperations, viewerOf } from './admit-member.js';
import { messagePage } from './layout.js';
import { outcomeDetail, outcomeRows } from './outcome-data.js';
import type { AdminContext } from './request.js';
import { outcomePage, outcomesPage, outcomesPath } from './views/outcomes.js';

/**
 * A page with a strong ETag (a digest of the page as sent) that answers 304 to a matching
 * If-None-Match. The browser revalidates every time (`no-cache`) and keeps it private: the page
 * shows a workspace's data, and its sign-out form the session's CSRF token.
 */
function conditional(ctx: AdminContext, page: Reply): Reply {
  if (page.status !== 200 || !page.text) return page;
  const etag = `"${sha256Hex(page.text.body).slice(0, 32)}"`;
  const headers = { ...page.headers, ETag: etag, 'Cache-Control': 'private, no-cache' };
  const sent = ctx.req.ifNoneMatch;
  if (sent !== undefined && noneMatchNames(sent, etag)) return { status: 304, headers };
  return { ...page, headers };
}

/** `2026-11-20T10:00:00.000Z~out_…`: where the next page of outcomes starts. */
const afterPattern = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)~(out_[A-Za-z0-9]{1,64})$/;

/** GET /{slug}/outcomes: every outcome with its progress, due day and owner, for every member. */
export async function showOutcomes(ctx: AdminContext, slug: string): Promise<Reply> {
  const member = await admitMember(ctx, slug);
  if (isMemberReply(member)) return member;
  const afterParam = ctx.req.query.get('after');
  const found = afterParam === null ? null : afterPattern.exec(afterParam);
  if (afterParam !== null && !found) {
    return messagePage(400, 'Bad page link', 'This link to a page of outcomes is malformed.', {
      signedIn: member.signedIn,
    });
  }
  const after = found?.[1] && found[2] ? { createdAt: found[1], id: found[2] } : undefined;
  const { rows, total, next } = await outcomeRows(memberOperations(ctx, member), after);
  return conditional(
    ctx,
    outcomesPage({
      ...viewerOf(member),
      rows,
      total,
      nextHref: next
        ? `${outcomesPath(member.workspace)}?after=${encodeURIComponent(`${next.createdAt}~${next.id}`)}`
        : null,
    }),
  );
}

/** GET /{slug}/outcomes/{id}: one outcome's charts and lists. */
export async function showOutcome(ctx: AdminContext, slug: string, id: string): Promise<Reply> {
  const member = await admitMember(ctx, slug);
  if (isMemberReply(member)) return member;
  const detail = await outcomeDetail(memberOperations(ctx, member), id, ctx.nowMs);
  if (!detail) {
    return messagePage(404, 'Page not found', 'There is no such outcome in this workspace.', {
      signedIn: member.signedIn,
    });
  }
  return conditional(
    ctx,
    outcomePage({
      ...viewerOf(member),
      detail,
    }),
  );
}
