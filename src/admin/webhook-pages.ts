import type { Reply, Services } from '../core/extension-kit.js';
import {
  ApiError,
  createWebhook,
  deleteWebhook,
  getWebhook,
  presentWebhook,
  replayWebhook,
  retryDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type WebhookView,
  webhookCreateSchema,
  webhookPatchSchema,
  webhookReplaySchema,
} from '../core/extension-kit.js';
import { type Admin, adminOperations, admitAdmin, admitToItem, isReply } from './admit.js';
import { attemptsOf, deliveryHours, recentDeliveries } from './delivery-log.js';
import { leaveFlash, withFlash } from './flash.js';
import { messagePage, redirect } from './layout.js';
import type { AdminContext } from './request.js';
import { deliveryPage } from './views/delivery.js';
import {
  deleteWebhookPage,
  type WebhookDetailView,
  type WebhookFormValues,
  webhookPage,
  webhookPath,
  webhooksPage,
  webhooksPath,
} from './views/webhooks.js';

type Page = (ctx: AdminContext, params: string[], services: Services) => Promise<Reply>;

function formValues(ctx: AdminContext): WebhookFormValues {
  return {
    url: (ctx.req.form.get('url') ?? '').trim(),
    eventTypes: ctx.req.form.getAll('eventTypes'),
    description: (ctx.req.form.get('description') ?? '').trim(),
  };
}

/** The form as the API's body: "All events" wins over single types, an empty description is none. */
const asBody = (values: WebhookFormValues) => ({
  url: values.url,
  eventTypes: values.eventTypes.includes('*') ? ['*'] : values.eventTypes,
  description: values.description === '' ? null : values.description,
});

/** Why the API refused a form, in a sentence. */
function reasonOf(error: ApiError): string {
  const issues = (error.extras.issues ?? []) as { path: string; message: string }[];
  if (error.code !== 'validation_failed' || issues.length === 0) return error.detail;
  return issues
    .map((i) =>
      i.path.startsWith('eventTypes')
        ? i.message.includes('least') || i.message.includes('Too small')
          ? 'Choose at least one event.'
          : `Events: ${i.message}`
        : i.path === 'url'
          ? `Endpoint URL: ${i.message}`
          : `${i.path}: ${i.message}`,
    )
    .join(' ');
}

/** Parses a form with the API's schema; throws the API's 400 when it does not fit. */
function parseWith<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: unknown,
): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({
    in: 'body',
    path: i.path.map(String).join('.'),
    message: i.message,
  }));
  throw new ApiError(400, 'validation_failed', 'The form is not valid.', { issues });
}

async function listPage(
  ctx: AdminContext,
  admin: Admin,
  extras: Partial<Parameters<typeof webhooksPage>[0]>,
) {
  const listed = await ctx.tx.webhooks.list({ accountId: admin.workspace.accountId, limit: 200 });
  return webhooksPage({
    workspace: admin.workspace,
    webhooks: listed.rows.map(presentWebhook),
    signedIn: admin.signedIn,
    ...extras,
  });
}

const showList: Page = async (ctx, [slug = '']) => {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const deleted = ctx.req.query.get('deleted');
  return listPage(ctx, admin, deleted ? { notice: `The webhook to ${deleted} was deleted.` } : {});
};

const create: Page = async (ctx, [slug = ''], services) => {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const form = formValues(ctx);
  try {
    const body = parseWith(webhookCreateSchema, asBody(form));
    const created = await createWebhook(adminOperations(ctx, admin, services), body);
    await leaveFlash(ctx, admin, {
      kind: 'webhook-secret',
      webhookId: created.id,
      secret: created.secret,
      rotated: false,
    });
    return redirect(`${webhookPath(admin.workspace, created.id)}?created=1`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return listPage(ctx, admin, { status: error.status, error: reasonOf(error), form });
  }
};

async function webhookOr404(ctx: AdminContext, admin: Admin, services: Services, id: string) {
  try {
    return await getWebhook(adminOperations(ctx, admin, services), id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const notFound = (admin: Admin, what = 'webhook') =>
  messagePage(
    404,
    `${what === 'webhook' ? 'Webhook' : 'Delivery'} not found`,
    `There is no such ${what} in this account.`,
    {
      signedIn: admin.signedIn,
    },
  );

/** The admin and the webhook a page is about, or the reply that ends the request. */
const admitToWebhook = (ctx: AdminContext, slug: string, id: string, services: Services) =>
  admitToItem(ctx, slug, (admin) => webhookOr404(ctx, admin, services, id), notFound);

/** Everything the subscription page shows besides the notices. */
async function detail(ctx: AdminContext, admin: Admin, webhook: WebhookView) {
  const { rows, total } = await recentDeliveries(ctx.tx, webhook, 25);
  return {
    workspace: admin.workspace,
    webhook,
    deliveries: rows,
    totalDeliveries: total,
    hours: await deliveryHours(ctx.tx, webhook, ctx.nowMs),
    signedIn: admin.signedIn,
  } satisfies WebhookDetailView;
}

const testNotice = (ctx: AdminContext, view: WebhookDetailView) => {
  const eventId = ctx.req.query.get('tested');
  if (!eventId) return null;
  const sent = view.deliveries.find((d) => d.eventId === eventId);
  if (!sent) return 'The test event was sent.';
  if (sent.status === 'delivered') {
    return `Test event delivered: the endpoint answered ${sent.lastResponseStatus} in ${sent.lastDurationMs} ms.`;
  }
  const answer =
    sent.lastResponseStatus !== null
      ? `answered ${sent.lastResponseStatus}`
      : `could not be reached (${sent.lastError})`;
  return `Test event failed: the endpoint ${answer}.`;
};

const replayNotice = (ctx: AdminContext) => {
  const queued = ctx.req.query.get('replayed');
  if (queued === null) return null;
  if (queued === '0')
    return 'Nothing to replay: every event in that range was delivered or replayed already.';
  return `Replay queued ${queued} ${queued === '1' ? 'delivery' : 'deliveries'}: the dispatcher sends them oldest first, several at a time, so a receiver may get them in another order.`;
};

const notices: Record<string, string> = {
  updated: 'Your changes were saved.',
  enabled: 'The webhook is enabled: events are sent to it again.',
  disabled: 'The webhook is disabled: no events are sent to it until it is enabled.',
};

const show: Page = async (ctx, [slug = '', id = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: webhook } = admitted;
  const view = await detail(ctx, admin, webhook);
  const note =
    testNotice(ctx, view) ??
    replayNotice(ctx) ??
    Object.entries(notices).find(([k]) => ctx.req.query.has(k))?.[1];
  if (!ctx.req.query.has('created') && !ctx.req.query.has('rotated')) {
    return webhookPage({ ...view, ...(note ? { notice: note } : {}) });
  }
  return withFlash(ctx, admin, (flash) =>
    flash?.kind === 'webhook-secret' && flash.webhookId === webhook.id
      ? webhookPage({ ...view, secret: { value: flash.secret, rotated: flash.rotated } })
      : webhookPage({
          ...view,
          notice: 'The signing secret was shown once, when it was made, and cannot be shown again.',
        }),
  );
};

const update: Page = async (ctx, [slug = '', id = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: webhook } = admitted;
  const form = formValues(ctx);
  try {
    const body = parseWith(webhookPatchSchema, asBody(form));
    await updateWebhook(adminOperations(ctx, admin, services), id, body);
    return redirect(`${webhookPath(admin.workspace, id)}?updated=1`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return webhookPage({
      ...(await detail(ctx, admin, webhook)),
      status: error.status,
      error: reasonOf(error),
      form,
    });
  }
};

const setStatus: Page = async (ctx, [slug = '', id = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin } = admitted;
  const status = ctx.req.form.get('status');
  if (status !== 'active' && status !== 'disabled') {
    return messagePage(400, 'Unknown state', 'A webhook is either active or disabled.', {
      signedIn: admin.signedIn,
    });
  }
  await updateWebhook(adminOperations(ctx, admin, services), id, { status });
  return redirect(`${webhookPath(admin.workspace, id)}?${status === 'active' ? 'enabled' : 'disabled'}=1`);
};

const rotate: Page = async (ctx, [slug = '', id = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin } = admitted;
  const rotated = await rotateWebhookSecret(adminOperations(ctx, admin, services), id);
  await leaveFlash(ctx, admin, {
    kind: 'webhook-secret',
    webhookId: id,
    secret: rotated.secret,
    rotated: true,
  });
  return redirect(`${webhookPath(admin.workspace, id)}?rotated=1`);
};

/** Queues the replay the form asks for (POST /webhooks/{id}/replay), then says how many. */
const replay: Page = async (ctx, [slug = '', id = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: webhook } = admitted;
  const number = (name: string) => {
    const value = ctx.req.form.get(name)?.trim() ?? '';
    return value === '' ? undefined : /^\d+$/.test(value) ? Number(value) : value;
  };
  const until = number('until');
  const parsed = webhookReplaySchema.safeParse({
    after: number('after') ?? 0,
    ...(until !== undefined ? { until } : {}),
  });
  if (!parsed.success) {
    return webhookPage({
      ...(await detail(ctx, admin, webhook)),
      status: 400,
      notice: 'Give the sequences as whole numbers: after, and optionally up to.',
    });
  }
  const result = await replayWebhook(adminOperations(ctx, admin, services), id, parsed.data);
  return redirect(`${webhookPath(admin.workspace, id)}?replayed=${result.queued}`);
};

/** Sends the test once the transaction has committed (as the API does), then shows its result. */
const sendTest: Page = async (ctx, [slug = '', id = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin } = admitted;
  const reply = await testWebhook(adminOperations(ctx, admin, services), id);
  const back = webhookPath(admin.workspace, id);
  return {
    status: 303,
    after: async (deps) => {
      const answer = reply.after ? await reply.after(deps) : reply;
      const eventId = (answer.body as { eventId?: string } | undefined)?.eventId ?? '';
      return redirect(`${back}?tested=${encodeURIComponent(eventId)}`);
    },
  };
};

const confirmDelete: Page = async (ctx, [slug = '', id = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: webhook } = admitted;
  return deleteWebhookPage({ workspace: admin.workspace, webhook, signedIn: admin.signedIn });
};

const remove: Page = async (ctx, [slug = '', id = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: webhook } = admitted;
  await deleteWebhook(adminOperations(ctx, admin, services), id);
  return redirect(`${webhooksPath(admin.workspace)}?deleted=${encodeURIComponent(webhook.url)}`);
};

async function deliveryOr404(ctx: AdminContext, webhook: WebhookView, deliveryId: string) {
  const delivery = await ctx.tx.deliveries.get(webhook.accountId, deliveryId);
  return delivery && delivery.subscriptionId === webhook.id ? delivery : null;
}

const showDelivery: Page = async (ctx, [slug = '', id = '', deliveryId = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: webhook } = admitted;
  const delivery = await deliveryOr404(ctx, webhook, deliveryId);
  if (!delivery) return notFound(admin, 'delivery');
  return deliveryPage({
    workspace: admin.workspace,
    webhook,
    delivery,
    attempts: await attemptsOf(ctx.tx, delivery),
    signedIn: admin.signedIn,
    ...(ctx.req.query.has('redelivered') ? { notice: 'Queued again: the dispatcher sends it now.' } : {}),
  });
};

const redeliver: Page = async (ctx, [slug = '', id = '', deliveryId = ''], services) => {
  const admitted = await admitToWebhook(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: webhook } = admitted;
  const delivery = await deliveryOr404(ctx, webhook, deliveryId);
  if (!delivery) return notFound(admin, 'delivery');
  await retryDelivery(adminOperations(ctx, admin, services), id, deliveryId);
  return redirect(`${webhookPath(admin.workspace, id)}/deliveries/${deliveryId}?redelivered=1`);
};

const webhookId = '(wh_[A-Za-z0-9]{1,64})';
const deliveryId = '(dlv_[A-Za-z0-9]{1,64})';

/** The webhook pages' routes under `/{slug}/admin/webhooks`. */
export function webhookAdminRoutes(
  slug: string,
): { pattern: RegExp; methods: Partial<Record<string, Page>> }[] {
  const at = (path: string) => new RegExp(`^/${slug}/admin/webhooks${path}$`);
  return [
    { pattern: at(''), methods: { GET: showList, POST: create } },
    { pattern: at(`/${webhookId}`), methods: { GET: show, POST: update } },
    { pattern: at(`/${webhookId}/status`), methods: { POST: setStatus } },
    { pattern: at(`/${webhookId}/rotate-secret`), methods: { POST: rotate } },
    { pattern: at(`/${webhookId}/test`), methods: { POST: sendTest } },
    { pattern: at(`/${webhookId}/replay`), methods: { POST: replay } },
    { pattern: at(`/${webhookId}/delete`), methods: { GET: confirmDelete, POST: remove } },
    { pattern: at(`/${webhookId}/deliveries/${deliveryId}`), methods: { GET: showDelivery } },
    { pattern: at(`/${webhookId}/deliveries/${deliveryId}/redeliver`), methods: { POST: redeliver } },
  ];
}
