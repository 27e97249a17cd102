import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { AfterCommitDeps, Reply } from '../core/extension-kit.js';
import type { Admin } from './admit.js';
import type { AdminContext } from './request.js';
import { sessionCookieName } from './sessions.js';

/**
 * A one-time message from a form's POST to the page it redirects to (Post/Redirect/Get): a new
 * token or webhook secret, shown once. It is kept server-side with the session, sealed with a key
 * derived from the session cookie, whose value the database never holds (only its hash): a copy
 * of the database reveals no secret. Taking it clears it, so a reload never shows it again.
 */
export type Flash =
  | { kind: 'token'; tokenId: string; plain: string }
  | { kind: 'webhook-secret'; webhookId: string; secret: string; rotated: boolean };

/** A flash older than this is not shown: it was meant for the redirect right after the POST. */
const flashLifetimeMs = 10 * 60 * 1000;

const keyOf = (cookieValue: string) => createHash('sha256').update(`admin-flash\n${cookieValue}`).digest();

function seal(cookieValue: string, flash: Flash, nowMs: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(cookieValue), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify({ flash, at: nowMs }), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

function open(cookieValue: string, sealed: string, nowMs: number): Flash | null {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(cookieValue), iv);
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    const { flash, at } = JSON.parse(plain) as { flash: Flash; at: number };
    return nowMs - at <= flashLifetimeMs ? flash : null;
  } catch {
    return null;
  }
}

/** Leaves a flash for the admin's next page (in the POST's own transaction). */
export async function leaveFlash(ctx: AdminContext, admin: Admin, flash: Flash): Promise<void> {
  const cookie = ctx.req.cookies.get(sessionCookieName) ?? '';
  await ctx.tx.sessions.setFlash(admin.session.session.idHash, seal(cookie, flash, ctx.nowMs));
}

/**
 * A page that shows the session's flash, if any: the flash is taken in a write transaction of
 * its own once the page's read has committed, then the page is rendered with it.
 */
export function withFlash(ctx: AdminContext, admin: Admin, render: (flash: Flash | null) => Reply): Reply {
  const cookie = ctx.req.cookies.get(sessionCookieName) ?? '';
  const idHash = admin.session.session.idHash;
  return {
    status: 200,
    after: async ({ storage, nowMs }: AfterCommitDeps) => {
      const sealed = await storage.transaction((tx) => tx.sessions.takeFlash(idHash));
      return render(sealed === null ? null : open(cookie, sealed, nowMs()));
    },
  };
}
