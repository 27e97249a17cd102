import type { Reply, WebhookDelivery, WebhookView, Workspace } from '../../core/extension-kit.js';
import { eventTypes, webhookTestEvent } from '../../core/extension-kit.js';
import { type Html, html } from '../html.js';
import { pageReply, type SignedIn, sectionPath, settingsPage } from '../layout.js';
import { alert, badge, confirmForm, csrfField, notice, secretOnce, when } from './common.js';
import { deliveryChart, type HourCount } from './delivery-chart.js';

export const webhooksPath = (workspace: Workspace) => sectionPath(workspace, 'webhooks');
export const webhookPath = (workspace: Workspace, id: string) => `${webhooksPath(workspace)}/${id}`;

/** The types a subscription may choose: the catalog without the test event, which only the test sends. */
const subscribable = eventTypes.filter((type) => type !== webhookTestEvent);

/** The events by family (`issue.created` → issues), in the catalog's order: 23 checkboxes in one list were hard to scan. */
const eventGroups: [string, string[]][] = [
  ...subscribable
    .reduce((groups, type) => {
      const family = (type.split('.')[0] ?? type).replace('_', ' ');
      groups.set(family, [...(groups.get(family) ?? []), type]);
      return groups;
    }, new Map<string, string[]>())
    .entries(),
];

const reasons: Record<string, string> = {
  gone: 'the receiver answered 410 Gone',
  failing: 'every delivery failed for 3 days',
};

/** "active", or "disabled" with why. */
export function webhookState(webhook: WebhookView): Html {
  if (webhook.status === 'active') return badge('active', 'ok');
  const why = webhook.disabledReason ? (reasons[webhook.disabledReason] ?? webhook.disabledReason) : null;
  return html`${badge('disabled', 'bad')}${why ? html` <span class="muted">(${why})</span>` : html` <span class="muted">(by an admin)</span>`}`;
}

export function deliveryState(delivery: WebhookDelivery): Html {
  if (delivery.status === 'delivered') return badge('delivered', 'ok');
  if (delivery.status === 'failed') return badge('failed', 'bad');
  return badge(delivery.attempts > 0 ? 'retrying' : 'pending', 'wait');
}

const eventList = (types: readonly string[]) =>
  types.includes('*')
    ? html`<em>all events</em>`
    : html`${types.map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`)}`;

/** The fields of a subscription, for the create form and the edit form alike. */
export interface WebhookFormValues {
  url: string;
  eventTypes: string[];
  description: string;
}

function webhookFields(prefix: string, values: WebhookFormValues, errorId: string | null) {
  const all = values.eventTypes.includes('*');
  return html`
    <label for="${prefix}-url">Endpoint URL</label>
    <input type="url" id="${prefix}-url" name="url" required maxlength="2048" value="${values.url}"
      placeholder="https://example.com/hooks/outcome-tracker"${errorId ? html` aria-describedby="${errorId}"` : null}>
    <label for="${prefix}-description">Description <span class="muted">(optional)</span></label>
    <input type="text" id="${prefix}-description" name="description" maxlength="500" value="${values.description}">
    <fieldset class="events" data-event-picker>
      <legend>Events to send</legend>
      <div><input type="checkbox" id="${prefix}-all" name="eventTypes" value="*"${all ? html` checked` : null}><label
        for="${prefix}-all"><strong>All events</strong> (<code>*</code>)</label></div>
      <p class="event-filter" hidden><label for="${prefix}-filter">Find an event</label>
        <input type="search" id="${prefix}-filter" data-event-filter placeholder="issue, created, …"></p>
      ${eventGroups.map(
        ([family, types]) => html`<fieldset class="choices" data-event-group>
        <legend>${family}</legend>
        ${types.map(
          (type) =>
            html`<div data-event="${type}"><input type="checkbox" id="${prefix}-${type}" name="eventTypes" value="${type}"${
              !all && values.eventTypes.includes(type) ? html` checked` : null
            }><label for="${prefix}-${type}"><code>${type}</code></label></div>`,
        )}
      </fieldset>`,
      )}
    </fieldset>`;
}

export interface WebhooksView {
  workspace: Workspace;
  webhooks: WebhookView[];
  signedIn: SignedIn;
  status?: number;
  notice?: string;
  error?: string;
  form?: WebhookFormValues;
}

/** The account's subscriptions with their state, and the form that adds one. */
export function webhooksPage(view: WebhooksView): Reply {
  const rows = view.webhooks.map(
    (w) => html`
  <tr data-webhook-id="${w.id}">
    <td data-label="Endpoint" class="url"><a href="${webhookPath(view.workspace, w.id)}">${w.url}</a>${
      w.description ? html`<br><span class="muted">${w.description}</span>` : null
    }</td>
    <td data-label="State">${webhookState(w)}</td>
    <td data-label="Events">${eventList(w.eventTypes)}</td>
    <td data-label="Created">${when(w.createdAt)}</td>
  </tr>`,
  );
  const table = view.webhooks.length
    ? html`<table aria-labelledby="webhooks-heading"><thead><tr><th scope="col">Endpoint</th><th scope="col">State</th>
        <th scope="col">Events</th><th scope="col">Created</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="muted">No webhooks yet. Add one below to have events sent to your endpoint.</p>`;
  const body = html`
${notice(view.notice)}
<p>Webhooks send a signed <code>POST</code> to your endpoint for every event it subscribes to. They belong to the
account, so every workspace of it shares them.</p>
<h2 id="webhooks-heading">Webhooks</h2>
${table}
<section aria-labelledby="new-webhook-heading" class="panel">
  <h2 id="new-webhook-heading">New webhook</h2>
  ${alert(view.error, 'new-webhook-error')}
  <form method="post" action="${webhooksPath(view.workspace)}">
    ${csrfField(view.signedIn.csrfToken)}
    ${webhookFields('new', view.form ?? { url: '', eventTypes: [], description: '' }, view.error ? 'new-webhook-error' : null)}
    <p><button type="submit">Create webhook</button></p>
  </form>
</section>`;
  return settingsPage(view, 'webhooks', {
    title: `Webhooks · ${view.workspace.slug}`,
    body,
    status: view.status ?? 200,
    scripts: ['event-filter.js'],
  });
}

export interface WebhookDetailView {
  workspace: Workspace;
  webhook: WebhookView;
  deliveries: WebhookDelivery[];
  totalDeliveries: number;
  hours: HourCount[];
  signedIn: SignedIn;
  status?: number;
  notice?: Html | string;
  error?: string;
  form?: WebhookFormValues;
  /** A secret to show this once: after the create, or after a rotation. */
  secret?: { value: string; rotated: boolean };
}

function deliveriesTable(view: WebhookDetailView) {
  if (view.deliveries.length === 0)
    return html`<p class="muted">Nothing delivered yet. Send a test event to try the endpoint.</p>`;
  const base = webhookPath(view.workspace, view.webhook.id);
  return html`
<table aria-labelledby="deliveries-heading">
  <thead><tr><th scope="col">Event</th><th scope="col">State</th><th scope="col">Attempts</th>
    <th scope="col">Last response</th><th scope="col">Last attempt</th><th scope="col">Next attempt</th></tr></thead>
  <tbody>${view.deliveries.map(
    (d) => html`
    <tr data-delivery-id="${d.id}">
      <td data-label="Event"><a href="${base}/deliveries/${d.id}"><code>${d.eventType}</code></a></td>
      <td data-label="State">${deliveryState(d)}</td>
      <td data-label="Attempts">${d.attempts}</td>
      <td data-label="Last response">${
        d.lastResponseStatus !== null
          ? html`<code>${d.lastResponseStatus}</code>`
          : d.lastError
            ? html`<span class="muted">${d.lastError}</span>`
            : html`<span class="muted">—</span>`
      }</td>
      <td data-label="Last attempt">${when(d.lastAttemptAt)}</td>
      <td data-label="Next attempt">${when(d.nextAttemptAt, '—')}</td>
    </tr>`,
  )}</tbody>
</table>`;
}

/** One subscription: its settings, actions, the last day's chart and its recent deliveries. */
export function webhookPage(view: WebhookDetailView): Reply {
  const { webhook } = view;
  const base = webhookPath(view.workspace, webhook.id);
  const csrf = csrfField(view.signedIn.csrfToken);
  const secretPanel = view.secret
    ? html`
<section class="panel" aria-labelledby="secret-heading">
  <h2 id="secret-heading">${view.secret.rotated ? 'New signing secret' : 'Signing secret'}</h2>
  <p class="notice" role="status">Copy the signing secret now: it is shown only this once.${
    view.secret.rotated
      ? ' The previous secret keeps signing deliveries (as a second signature) for 24 hours.'
      : ''
  }</p>
  ${secretOnce('Signing secret', 'webhook-secret', view.secret.value)}
</section>`
    : notice(view.notice);
  const toggle = webhook.status === 'active' ? 'disabled' : 'active';
  const body = html`
${secretPanel}
<dl class="details">
  <dt>Endpoint</dt><dd><code>${webhook.url}</code></dd>
  <dt>State</dt><dd>${webhookState(webhook)}</dd>
  <dt>Events</dt><dd>${eventList(webhook.eventTypes)}</dd>
  ${webhook.description ? html`<dt>Description</dt><dd>${webhook.description}</dd>` : null}
  <dt>Created</dt><dd>${when(webhook.createdAt)}</dd>
</dl>
<div class="actions">
  <form method="post" action="${base}/test">${csrf}<button type="submit">Send test event</button></form>
  <form method="post" action="${base}/status">${csrf}<input type="hidden" name="status" value="${toggle}">
    <button type="submit" class="secondary">${toggle === 'active' ? 'Enable' : 'Disable'}</button></form>
  <form method="post" action="${base}/rotate-secret">${csrf}<button type="submit" class="secondary">Rotate secret</button></form>
  <a class="button danger" href="${base}/delete">Delete…</a>
</div>
<section aria-labelledby="replay-heading" class="panel">
  <h2 id="replay-heading">Replay events</h2>
  <p class="muted">Sends the events after a signal's sequence again, in order, each with its event id: an event
  already delivered to this webhook, or replayed before, is not sent twice.</p>
  <form method="post" action="${base}/replay">
    ${csrf}
    <label for="replay-after">After sequence</label>
    <input id="replay-after" name="after" type="number" min="0" step="1" required value="0">
    <label for="replay-until">Up to sequence <span class="muted">(optional)</span></label>
    <input id="replay-until" name="until" type="number" min="0" step="1">
    <p><button type="submit" class="secondary">Replay</button></p>
  </form>
</section>
<h2>Last 24 hours</h2>
${deliveryChart(view.hours)}
<h2 id="deliveries-heading">Recent deliveries <span class="muted">(${view.totalDeliveries})</span></h2>
${deliveriesTable(view)}
<section aria-labelledby="edit-heading" class="panel">
  <h2 id="edit-heading">Edit webhook</h2>
  ${alert(view.error, 'edit-webhook-error')}
  <form method="post" action="${base}">
    ${csrf}
    ${webhookFields(
      'edit',
      view.form ?? {
        url: webhook.url,
        eventTypes: webhook.eventTypes,
        description: webhook.description ?? '',
      },
      view.error ? 'edit-webhook-error' : null,
    )}
    <p><button type="submit">Save changes</button></p>
  </form>
</section>`;
  return settingsPage(view, 'webhooks', {
    title: `Webhook ${new URL(webhook.url).host}`,
    body,
    status: view.status ?? 200,
    scripts: view.secret ? ['copy-token.js', 'event-filter.js'] : ['event-filter.js'],
  });
}

export function deleteWebhookPage(view: {
  workspace: Workspace;
  webhook: WebhookView;
  signedIn: SignedIn;
}): Reply {
  const base = webhookPath(view.workspace, view.webhook.id);
  return pageReply({
    title: 'Delete webhook?',
    body: confirmForm({
      action: `${base}/delete`,
      csrfToken: view.signedIn.csrfToken,
      question: html`Delete the webhook to <code>${view.webhook.url}</code>? No more events are sent to it, and its
        delivery log is deleted with it. This cannot be undone.`,
      button: 'Delete webhook',
      cancelHref: base,
    }),
    signedIn: view.signedIn,
    nav: { workspace: view.workspace, current: 'webhooks' },
  });
}
