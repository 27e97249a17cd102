import { ApiError, notFound } from '../../errors.js';
import type { WebhookDelivery, WebhookSubscription } from '../../model.js';
import { preconditionHolds, versionConflict } from '../../pipeline/conditional.js';
import type { OperationContext, Services } from '../../pipeline/context.js';
import { decodeCursor, type Page, toPage } from '../../pipeline/pagination.js';
import { VersionMismatch } from '../../port/index.js';
import { isoTime } from '../../runtime.js';
import { webhookEvents } from '../../webhooks/events.js';
import {
  type DeliveryDetailView,
  type DeliveryView,
  presentDelivery,
  presentDeliveryDetail,
  presentWebhook,
  type WebhookView,
} from '../../webhooks/present.js';
import { newSigningSecret } from '../../webhooks/secret.js';
import { checkWebhookUrl, isForbiddenAddress } from '../../webhooks/ssrf.js';
import { changedFields, firstVersion } from '../shared/operations.js';
import type { DeliveryListQuery, WebhookCreate, WebhookListQuery, WebhookPatch } from './schema.js';

/** Receivers get 24 hours to move to a rotated secret, during which both sign every delivery. */
export const rotationOverlapMs = 24 * 60 * 60 * 1000;

/**
 * The most subscriptions an account may have, whatever their status (a disabled one can be
 * PATCHed back to active). Every signal becomes a delivery row per subscription that wants it,
 * in the transaction that writes the signal: this bounds what one write of a tenant costs the
 * shared writer (about 15 µs a subscription on SQLite, so at most about 15 ms). Higher than
 * hosted services allow (GitHub 20 hooks per event, Stripe 16 endpoints): apps here make a
 * subscription per integration or per test run and may not clean up at once.
 */
export const maxSubscriptionsPerAccount = 1000;

export type { DeliveryDetailView, DeliveryView, WebhookView };

const resourceOf = (w: WebhookSubscription) => ({ type: 'webhook', id: w.id });

const badUrl = (reason: string) =>
  new ApiError(400, 'validation_failed', `url: ${reason}`, {
    issues: [{ in: 'body', path: 'url', message: reason }],
  });

/** The host name of a webhook URL as the resolver wants it (IPv6 literals without brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Resolves the host of the URL in a create or PATCH body before the transaction (a route's
 * `prepare`), so the transaction never waits on DNS. Anything it cannot read is left for
 * validation to refuse.
 */
export async function resolveTargetHost(body: unknown, services: Services): Promise<Services> {
  const { sender, allowPrivateTargets } = services.webhooks;
  const raw = typeof body === 'object' && body !== null ? (body as { url?: unknown }).url : undefined;
  if (typeof raw !== 'string' || allowPrivateTargets || !sender) return services;
  const verdict = checkWebhookUrl(raw.trim(), allowPrivateTargets);
  if (!verdict.ok) return services;
  const host = hostOf(verdict.url);
  const addresses = await sender.resolve(host).catch(() => null);
  return { ...services, webhooks: { ...services.webhooks, resolvedHosts: new Map([[host, addresses]]) } };
}

/**
 * Refuses targets the SSRF guard forbids: the literal checks, then every address the host
 * resolves to (resolved before the transaction when the request came over HTTP; an embedding
 * app calling the operation directly resolves here). Deliveries check again against the
 * address they connect to.
 */
async function checkTarget(ctx: OperationContext, url: string): Promise<void> {
  const { sender, allowPrivateTargets, resolvedHosts } = ctx.services.webhooks;
  const verdict = checkWebhookUrl(url, allowPrivateTargets);
  if (!verdict.ok) throw badUrl(verdict.reason);
  if (allowPrivateTargets || !sender) return;
  const host = hostOf(verdict.url);
  const addresses = resolvedHosts?.has(host)
    ? resolvedHosts.get(host)
    : await sender.resolve(host).catch(() => null);
  if (!addresses) throw badUrl(`the host ${host} does not resolve`);
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden) throw badUrl(`the host ${host} resolves to a private or reserved address (${forbidden})`);
}

export async function getWebhookRow(ctx: OperationContext, id: string): Promise<WebhookSubscription> {
  const row = await ctx.tx.webhooks.get(ctx.tenant.accountId, id);
  if (!row) throw notFound('webhook');
  return row;
}

async function getForWrite(ctx: OperationContext, id: string): Promise<WebhookSubscription> {
  const row = await getWebhookRow(ctx, id);
  if (ctx.precondition && !preconditionHolds(ctx.precondition, row.version))
    throw versionConflict(row.version);
  return row;
}

async function save(
  ctx: OperationContext,
  current: WebhookSubscription,
  changes: Partial<WebhookSubscription>,
) {
  const next = { ...current, ...changes, version: current.version + 1, updatedAt: ctx.now };
  try {
    await ctx.tx.webhooks.update(next, current.version);
  } catch (error) {
    if (error instanceof VersionMismatch)
      throw error.current === null ? notFound('webhook') : versionConflict(error.current);
    throw error;
  }
  return next;
}

/** Creates a subscription for the token's account; the secret is in this answer only. */
export async function createWebhook(
  ctx: OperationContext,
  input: WebhookCreate,
): Promise<WebhookView & { secret: string }> {
  await checkTarget(ctx, input.url);
  // Counted in the transaction that inserts: on PostgreSQL (SERIALIZABLE writes) two creates
  // racing for the last place cannot both take it.
  const { total } = await ctx.tx.webhooks.list({ accountId: ctx.tenant.accountId, limit: 1 });
  if (total >= maxSubscriptionsPerAccount) {
    throw new ApiError(
      409,
      'subscription_limit_reached',
      `An account has at most ${maxSubscriptionsPerAccount} webhook subscriptions; delete one it no longer needs first.`,
      { limit: maxSubscriptionsPerAccount },
    );
  }
  const webhook: WebhookSubscription = {
    id: ctx.ids.id('wh'),
    accountId: ctx.tenant.accountId,
    url: input.url,
    eventTypes: input.eventTypes,
    description: input.description ?? null,
    status: 'active',
    disabledReason: null,
    secret: newSigningSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    signatureScheme: input.signatureScheme ?? 'stripe',
    ...firstVersion(ctx),
  };
  await ctx.tx.webhooks.insert(webhook);
  await ctx.emit({
    type: webhookEvents.created,
    resource: resourceOf(webhook),
    data: { object: presentWebhook(webhook) },
  });
  return { ...presentWebhook(webhook), secret: webhook.secret };
}

export async function getWebhook(ctx: OperationContext, id: string): Promise<WebhookView> {
  return presentWebhook(await getWebhookRow(ctx, id));
}

export async function listWebhooks(
  ctx: OperationContext,
  query: WebhookListQuery,
): Promise<Page<WebhookView>> {
  const filters = { name: 'webhooks', status: query.status };
  const result = await ctx.tx.webhooks.list({
    accountId: ctx.tenant.accountId,
    limit: query.limit + 1,
    ...(query.status ? { status: query.status } : {}),
    ...(query.cursor !== undefined ? { after: decodeCursor(query.cursor, filters) } : {}),
  });
  return toPage(result.rows, result.total, query.limit, filters, presentWebhook);
}

/** Updates a subscription; setting it active again also forgets why it was disabled. */
export async function updateWebhook(
  ctx: OperationContext,
  id: string,
  patch: WebhookPatch,
): Promise<WebhookView> {
  const current = await getForWrite(ctx, id);
  if (patch.url !== undefined && patch.url !== current.url) await checkTarget(ctx, patch.url);
  const changes: Partial<WebhookSubscription> = changedFields(current, patch as Partial<WebhookSubscription>);
  if (Object.keys(changes).length === 0) return presentWebhook(current);
  if (changes.status === 'active') Object.assign(changes, { disabledReason: null, failingSince: null });
  const next = await save(ctx, current, changes);
  const previous = Object.fromEntries(
    Object.keys(changes)
      .filter((f) => f !== 'failingSince')
      .map((f) => [f, current[f as keyof WebhookSubscription]]),
  );
  await ctx.emit({
    type: webhookEvents.updated,
    resource: resourceOf(next),
    data: { object: presentWebhook(next), previous },
  });
  return presentWebhook(next);
}

export async function deleteWebhook(ctx: OperationContext, id: string): Promise<void> {
  const current = await getForWrite(ctx, id);
  await ctx.tx.webhooks.delete(ctx.tenant.accountId, current.id);
  await ctx.emit({
    type: webhookEvents.deleted,
    resource: resourceOf(current),
    data: { object: presentWebhook(current) },
  });
}

/** Issues a new secret, shown once; the old one keeps signing (second v1) for 24 hours. */
export async function rotateWebhookSecret(
  ctx: OperationContext,
  id: string,
): Promise<WebhookView & { secret: string; previousSecretExpiresAt: string }> {
  const current = await getForWrite(ctx, id);
  const previousSecretExpiresAt = isoTime(Date.parse(ctx.now) + rotationOverlapMs);
  const next = await save(ctx, current, {
    secret: newSigningSecret(),
    previousSecret: current.secret,
    previousSecretExpiresAt,
  });
  await ctx.emit({
    type: webhookEvents.updated,
    resource: resourceOf(next),
    data: { object: presentWebhook(next), previous: {}, secretRotated: true },
  });
  return { ...presentWebhook(next), secret: next.secret, previousSecretExpiresAt };
}

export async function listDeliveries(
  ctx: OperationContext,
  webhookId: string,
  query: DeliveryListQuery,
): Promise<Page<DeliveryView>> {
  const webhook = await getWebhookRow(ctx, webhookId);
  const filters = { name: 'deliveries', webhookId: webhook.id };
  const result = await ctx.tx.deliveries.list({
    accountId: ctx.tenant.accountId,
    subscriptionId: webhook.id,
    limit: query.limit + 1,
    ...(query.cursor !== undefined ? { after: decodeCursor(query.cursor, filters) } : {}),
  });
  return toPage(result.rows, result.total, query.limit, filters, presentDelivery);
}

async function getDeliveryRow(
  ctx: OperationContext,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const webhook = await getWebhookRow(ctx, webhookId);
  const delivery = await ctx.tx.deliveries.get(ctx.tenant.accountId, deliveryId);
  if (!delivery || delivery.subscriptionId !== webhook.id) throw notFound('delivery');
  return delivery;
}

/** The most attempts a delivery's detail shows (the latest ones). */
export const attemptLogLimit = 50;

/** One delivery with its payload and the log of its attempts: exactly what was sent, and what came back. */
export async function getDelivery(
  ctx: OperationContext,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryDetailView> {
  const delivery = await getDeliveryRow(ctx, webhookId, deliveryId);
  const attempts = await ctx.tx.deliveries.attempts(ctx.tenant.accountId, delivery.id, attemptLogLimit);
  return presentDeliveryDetail(delivery, attempts);
}

/** Attempts per hour over the last `hours` hours (every hour listed, zeros included), oldest first. */
export async function deliveryStats(
  ctx: OperationContext,
  webhookId: string,
  hours: number,
): Promise<{ since: string; hours: { hour: string; succeeded: number; failed: number }[] }> {
  const webhook = await getWebhookRow(ctx, webhookId);
  const hourMs = 60 * 60 * 1000;
  const firstHour = Math.floor(Date.parse(ctx.now) / hourMs) * hourMs - (hours - 1) * hourMs;
  const since = isoTime(firstHour);
  const counted = new Map(
    (await ctx.tx.deliveries.attemptsPerHour(ctx.tenant.accountId, webhook.id, since)).map((h) => [
      h.hour,
      h,
    ]),
  );
  return {
    since,
    hours: Array.from({ length: hours }, (_, i) => {
      const hour = isoTime(firstHour + i * hourMs);
      const found = counted.get(hour);
      return { hour, succeeded: found?.succeeded ?? 0, failed: found?.failed ?? 0 };
    }),
  };
}

/** The answer to a retry of a delivery whose attempt is in flight: sending it again now would send it twice. */
const inFlight = (delivery: WebhookDelivery) =>
  new ApiError(
    409,
    'delivery_in_flight',
    'This delivery is being sent right now; retry it once the attempt is over.',
    { leaseExpiresAt: delivery.leaseExpiresAt },
  );

/**
 * Redelivers: puts the delivery back in the queue for an attempt now, with a fresh retry
 * schedule, whatever its state (delivered, failed, or waiting for a retry), as GitHub's
 * "Redeliver" does. The attempts already made stay counted and logged; `deliveredAt` is
 * cleared until the new attempt delivers. A delivery in flight (`sending` under a live lease)
 * answers 409 delivery_in_flight instead of being sent twice.
 */
export async function retryDelivery(
  ctx: OperationContext,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const delivery = await getDeliveryRow(ctx, webhookId, deliveryId);
  if (delivery.status === 'sending' && delivery.leaseExpiresAt !== null && delivery.leaseExpiresAt > ctx.now)
    throw inFlight(delivery);
  const next: WebhookDelivery = {
    ...delivery,
    status: 'pending',
    scheduleFrom: delivery.attempts,
    nextAttemptAt: ctx.now,
    leaseId: null,
    leaseExpiresAt: null,
    deliveredAt: null,
    updatedAt: ctx.now,
  };
  await ctx.tx.deliveries.update(next);
  ctx.services.webhooks.deliveriesQueued?.();
  return presentDelivery(next);
}
