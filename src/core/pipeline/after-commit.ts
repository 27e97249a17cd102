import type { Storage } from '../port/index.js';
import type { Principal } from './auth.js';
import { type Grant, grantLost } from './authority.js';
import type { AfterCommitDeps, Reply } from './reply.js';
import type { RequestState } from './request-state.js';
import { waitForChange } from './runtime.js';
import { chargedStorage } from './storage-time.js';
import { holdingSlot, tooManyStreams } from './stream-slots.js';

/** What a request produced, before serialization. */
export interface Outcome {
  reply: Reply;
  stream: AsyncIterable<string> | null;
  /** The account the request acted for, once its token was read; null before (and for open routes). */
  account: string | null;
}

/**
 * The request's work after its commit (`reply.after`, a stream), run as its account's: the
 * transactions it makes are charged to the account's share of the storage's time, and a stream's
 * wait while the share is spent (see chargedStorage); a stream holds one of the account's slots.
 */
export async function afterCommit(
  state: RequestState,
  reply: Reply,
  principal: Principal | null,
): Promise<Outcome> {
  const { rt, req } = state;
  const account = principal?.accountId ?? null;
  const depsWith = afterCommitDeps(state, principal);
  const budget = rt.storageTime;
  const chargedTo = (throttle: boolean): Storage =>
    budget && account !== null ? chargedStorage(rt.storage, budget, account, rt.clock, throttle) : rt.storage;
  const final = reply.after ? await reply.after(depsWith(chargedTo(false))) : reply;
  if (!final.streamFrom) return { reply: final, stream: null, account };
  const streamDeps = depsWith(chargedTo(true));
  // HEAD learns what a GET would start, and no stream starts (serialize drops it unread): it
  // takes no slot.
  if (req.method === 'HEAD') return { reply: final, stream: final.streamFrom(streamDeps), account };
  const free = account === null ? () => {} : rt.streams.take(account);
  if (free === null) throw tooManyStreams();
  return { reply: final, stream: holdingSlot(final.streamFrom(streamDeps), free), account };
}

/** What work after the commit runs with, over the storage it is given. */
function afterCommitDeps(
  state: RequestState,
  principal: Principal | null,
): (storage: Storage) => AfterCommitDeps {
  const { rt } = state;
  const account = principal?.accountId ?? null;
  const grant = grantOf(state, principal);
  return (storage) => ({
    storage,
    nowMs: () => rt.clock.now(),
    waitForChange: (ms) =>
      account === null
        ? new Promise((resolve) => setTimeout(resolve, ms))
        : waitForChange(rt.changes, account, ms),
    grantLost: (tx) => (grant === null ? Promise.resolve(null) : grantLost(tx, grant, rt.clock.now())),
  });
}

/** What an authenticated request was granted, for work after its commit to check again. */
function grantOf({ req, target, match }: RequestState, principal: Principal | null): Grant | null {
  if (principal === null || match === null || match.kind !== 'route') return null;
  const { method } = target;
  return { authorization: req.headers.authorization, access: match.route.access, method, principal };
}
