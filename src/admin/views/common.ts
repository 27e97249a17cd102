import { type Html, html } from '../html.js';

/** An RFC 3339 time as a short UTC date and time, in a <time> element. */
export const when = (iso: string | null, never = 'never') =>
  iso === null
    ? html`<span class="muted">${never}</span>`
    : html`<time datetime="${iso}">${shortTime(iso)}</time>`;

export const shortTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The hidden CSRF field every form carries. */
export const csrfField = (csrfToken: string) => html`<input type="hidden" name="csrf" value="${csrfToken}">`;

/** A status word in a coloured pill; the word itself carries the meaning, never the colour alone. */
export const badge = (text: string, tone: 'ok' | 'bad' | 'wait' | 'off') =>
  html`<span class="badge ${tone}">${text}</span>`;

export const notice = (text: Html | string | undefined) =>
  text ? html`<p class="notice" role="status">${text}</p>` : null;

export const alert = (text: string | undefined, id: string) =>
  text ? html`<p class="alert" role="alert" id="${id}">${text}</p>` : null;

/**
 * A secret shown once, in a read-only field the user can select, with a Copy button the
 * page's only script reveals (without JavaScript the field stays selectable).
 */
export const secretOnce = (label: string, id: string, value: string) => html`
  <label for="${id}">${label}</label>
  <div class="token-value">
    <input type="text" id="${id}" name="${id}" readonly value="${value}" autocomplete="off"
      spellcheck="false" aria-describedby="${id}-status">
    <button type="button" hidden data-copy-target="${id}" data-copy-status="${id}-status">Copy</button>
  </div>
  <p id="${id}-status" class="muted" aria-live="polite"></p>`;

/** A confirmation step that works without JavaScript: a page with the one button that does it. */
export const confirmForm = (options: {
  action: string;
  csrfToken: string;
  question: Html | string;
  button: string;
  cancelHref: string;
}) => html`
<div class="panel">
  <p>${options.question}</p>
  <form method="post" action="${options.action}" class="actions">
    ${csrfField(options.csrfToken)}
    <button type="submit" class="danger solid">${options.button}</button>
    <a href="${options.cancelHref}">Cancel</a>
  </form>
</div>`;
