import type { Reply, WebhookDelivery, WebhookView, Workspace } from '../../core/extension-kit.js';
import { html } from '../html.js';
import { type SignedIn, settingsPage } from '../layout.js';
import { csrfField, notice, when } from './common.js';
import { deliveryState, webhookPath } from './webhooks.js';

/** What one attempt sent and got back, as the delivery log records it. */
export interface AttemptDetail {
  number: number;
  startedAt: string;
  durationMs: number;
  request: { url: string; headers: Record<string, string> };
  response: { status: number; headers: Record<string, string>; body: string; bodyTruncated: boolean } | null;
  error: string | null;
  succeeded: boolean;
}

export interface DeliveryView {
  workspace: Workspace;
  webhook: WebhookView;
  delivery: WebhookDelivery;
  /** The attempts the log kept, oldest first; empty when none was made (or none recorded). */
  attempts: AttemptDetail[];
  signedIn: SignedIn;
  notice?: string;
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** Status, headers and body as received, without blank lines standing for what was not there. */
function responseText(response: NonNullable<AttemptDetail['response']>): string {
  const head = [String(response.status), headerLines(response.headers)].filter((part) => part !== '');
  const body = response.body === '' ? '(empty body)' : response.body;
  const cut = response.bodyTruncated ? '\n… (only the first bytes are kept)' : '';
  return `${head.join('\n')}\n\n${body}${cut}`;
}

/** The body as sent, pretty-printed when it is JSON (the exact bytes are shown too). */
function prettyJson(body: string): string | null {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return null;
  }
}

function attemptSection(attempt: AttemptDetail, body: string) {
  const heading = `Attempt ${attempt.number}`;
  return html`
<section aria-labelledby="attempt-${attempt.number}" class="panel">
  <h3 id="attempt-${attempt.number}">${heading}: ${attempt.succeeded ? 'delivered' : 'failed'}, ${when(attempt.startedAt)},
    ${attempt.durationMs} ms</h3>
  <h4>Request</h4>
  <pre aria-label="${heading} request">POST ${attempt.request.url}
${headerLines(attempt.request.headers)}

${body}</pre>
  <h4>Response</h4>
  ${
    attempt.response
      ? html`<pre aria-label="${heading} response">${responseText(attempt.response)}</pre>`
      : html`<p class="alert">No response: ${attempt.error ?? 'unknown error'}</p>`
  }
</section>`;
}

/** One delivery: state, the exact body, each attempt's request (signature included) and response. */
export function deliveryPage(view: DeliveryView): Reply {
  const { delivery, webhook } = view;
  const base = webhookPath(view.workspace, webhook.id);
  const pretty = prettyJson(delivery.payload);
  const body = html`
${notice(view.notice)}
<p><a href="${base}">← Back to the webhook to <code>${webhook.url}</code></a></p>
<dl class="details">
  <dt>Event</dt><dd><code>${delivery.eventType}</code> <span class="muted">(event id <code>${delivery.eventId}</code>)</span></dd>
  <dt>State</dt><dd>${deliveryState(delivery)}</dd>
  <dt>Attempts</dt><dd>${delivery.attempts}</dd>
  <dt>Last response</dt><dd>${
    delivery.lastResponseStatus !== null
      ? html`<code>${delivery.lastResponseStatus}</code>`
      : html`<span class="muted">${delivery.lastError ?? '—'}</span>`
  }${delivery.lastDurationMs !== null ? html` in ${delivery.lastDurationMs} ms` : null}</dd>
  <dt>Last attempt</dt><dd>${when(delivery.lastAttemptAt)}</dd>
  <dt>Next attempt</dt><dd>${when(delivery.nextAttemptAt, '—')}</dd>
  <dt>Created</dt><dd>${when(delivery.createdAt)}</dd>
</dl>
<form method="post" action="${base}/deliveries/${delivery.id}/redeliver" class="actions">
  ${csrfField(view.signedIn.csrfToken)}
  <button type="submit">Redeliver</button>
  <span class="hint">Queues it again for an attempt now, signed anew.</span>
</form>
<h2>Request body</h2>
<pre aria-label="Request body as sent">${delivery.payload}</pre>
${pretty && pretty !== delivery.payload ? html`<details><summary>Formatted</summary><pre>${pretty}</pre></details>` : null}
<h2>Attempts</h2>
${
  view.attempts.length
    ? view.attempts.map((a) => attemptSection(a, delivery.payload))
    : delivery.attempts === 0
      ? html`<p class="muted">No attempt has been made yet.</p>`
      : html`<p class="muted">The details of its ${delivery.attempts} attempt(s) were not recorded.</p>`
}`;
  return settingsPage(view, 'webhooks', {
    title: `Delivery of ${delivery.eventType}`,
    body,
  });
}
