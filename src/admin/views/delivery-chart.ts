import { type Html, html } from '../html.js';

/** Attempts of one hour: how many succeeded and how many failed. */
export interface HourCount {
  /** The hour's start, RFC 3339. */
  hour: string;
  succeeded: number;
  failed: number;
}

const hourMs = 60 * 60 * 1000;

/** The 24 hours ending with the current one, oldest first, with zeros where nothing happened. */
export function lastDay(counts: readonly HourCount[], nowMs: number): HourCount[] {
  const current = Math.floor(nowMs / hourMs) * hourMs;
  const byHour = new Map(counts.map((c) => [Date.parse(c.hour), c]));
  return Array.from({ length: 24 }, (_, i) => {
    const start = current - (23 - i) * hourMs;
    const found = byHour.get(start);
    return {
      hour: new Date(start).toISOString(),
      succeeded: found?.succeeded ?? 0,
      failed: found?.failed ?? 0,
    };
  });
}

/**
 * A server-rendered bar chart (inline SVG, no script) of the last 24 hours' attempts: per hour,
 * succeeded ones in the success colour stacked under failed in the danger colour. Each bar has a <title>, and
 * the whole chart a text summary, so the figures do not depend on seeing the colours.
 */
export function deliveryChart(hours: readonly HourCount[]): Html {
  const width = 480;
  const height = 140;
  const top = 10;
  // Room under the axis for the hour labels, which a phone shows larger (see the stylesheet).
  const bottom = 28;
  const plot = height - top - bottom;
  const slot = width / hours.length;
  const max = Math.max(1, ...hours.map((h) => h.succeeded + h.failed));
  const scale = (n: number) => (n / max) * plot;
  const totals = hours.reduce((t, h) => ({ ok: t.ok + h.succeeded, bad: t.bad + h.failed }), {
    ok: 0,
    bad: 0,
  });
  const summary = `Attempts in the last 24 hours: ${totals.ok} succeeded, ${totals.bad} failed; at most ${max} in an hour.`;
  const bars = hours.map((h, i) => {
    const x = i * slot + 2;
    const w = slot - 4;
    const okHeight = scale(h.succeeded);
    const badHeight = scale(h.failed);
    const base = top + plot;
    const label = `${h.hour.slice(11, 16)} UTC: ${h.succeeded} succeeded, ${h.failed} failed`;
    return html`<g><title>${label}</title>${
      okHeight > 0
        ? html`<rect class="ok" x="${x.toFixed(1)}" y="${(base - okHeight).toFixed(1)}" width="${w.toFixed(1)}" height="${okHeight.toFixed(1)}"></rect>`
        : null
    }${
      badHeight > 0
        ? html`<rect class="bad" x="${x.toFixed(1)}" y="${(base - okHeight - badHeight).toFixed(1)}" width="${w.toFixed(1)}" height="${badHeight.toFixed(1)}"></rect>`
        : null
    }</g>`;
  });
  const ticks = [0, 6, 12, 18, 23].map((i) => {
    const hour = hours[i]?.hour.slice(11, 16) ?? '';
    // The end labels align to the chart's edges, so neither is cut off.
    const [x, anchor] =
      i === 0 ? [0, 'start'] : i === hours.length - 1 ? [width, 'end'] : [i * slot + slot / 2, 'middle'];
    return html`<text x="${x.toFixed(1)}" y="${height - 6}" text-anchor="${anchor}">${hour}</text>`;
  });
  return html`
<figure class="chart">
  <svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${summary}" xmlns="http://www.w3.org/2000/svg">
    <line class="axis" x1="0" y1="${top + plot + 0.5}" x2="${width}" y2="${top + plot + 0.5}"></line>
    ${bars}
    ${ticks}
  </svg>
  <figcaption>
    <span class="legend"><span><span class="swatch ok"></span>Succeeded (${totals.ok})</span>
    <span><span class="swatch bad"></span>Failed (${totals.bad})</span></span>
    <span class="muted">${summary}</span>
  </figcaption>
</figure>`;
}
