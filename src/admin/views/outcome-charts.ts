import { type Html, html } from '../html.js';
import type { BurnUpDay } from '../outcome-data.js';

/**
 * The outcome page's charts: inline SVG, no script. Each has a <title> (its name for assistive
 * technology) and a text summary, and comes with a table of the same numbers beside it, for
 * screen readers and for copying. The drawings are 360 units wide: a 390 px phone shows them at
 * about their own size, so 12-unit labels stay 12 px there (a wide window shows them larger).
 */

const width = 360;
const fmt = (n: number) => n.toFixed(1);

/** The chart and its table side by side (stacked on a phone). */
const pair = (figure: Html, table: Html) => html`<div class="chart-pair">${figure}${table}</div>`;

/** Up to three round values from 0 to `max` for the y axis. */
function ticks(max: number): number[] {
  if (max <= 0) return [0];
  if (max <= 2) return Array.from({ length: max + 1 }, (_, i) => i);
  return [0, Math.round(max / 2), max];
}

/**
 * The burn-up: issues of the outcome in all (created) and resolved, by the end of each day from
 * the day it began. The table lists the days on which either changed, and the first and last.
 */
export function burnUpChart(series: readonly BurnUpDay[], id: string): Html {
  const height = 200;
  const left = 30;
  const right = 8;
  const top = 10;
  const bottom = 36;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const max = Math.max(1, ...series.map((d) => d.created));
  const x = (i: number) => left + (series.length <= 1 ? plotW : (i / (series.length - 1)) * plotW);
  const y = (n: number) => top + plotH - (n / max) * plotH;
  const line = (pick: (d: BurnUpDay) => number) =>
    series.map((d, i) => `${fmt(x(i))},${fmt(y(pick(d)))}`).join(' ');
  const first = series[0];
  const last = series.at(-1);
  const summary = last
    ? `From ${first?.day} to ${last.day}: ${last.created} issues in all, ${last.resolved} resolved.`
    : 'No days to show.';
  const xLabels = series.length > 0 ? [0, Math.floor((series.length - 1) / 2), series.length - 1] : [];
  const figure = html`
<figure class="chart">
  <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title" xmlns="http://www.w3.org/2000/svg">
    <title id="${id}-title">Burn-up: issues created and resolved per day. ${summary}</title>
    ${ticks(max).map(
      (
        n,
      ) => html`<line class="grid" x1="${left}" y1="${fmt(y(n))}" x2="${width - right}" y2="${fmt(y(n))}"></line>
    <text x="${left - 4}" y="${fmt(y(n) + 4)}" text-anchor="end">${n}</text>`,
    )}
    <line class="axis" x1="${left}" y1="${top + plotH + 0.5}" x2="${width - right}" y2="${top + plotH + 0.5}"></line>
    ${[...new Set(xLabels)].map((i) => {
      const anchor = i === 0 ? 'start' : i === series.length - 1 ? 'end' : 'middle';
      return html`<text x="${fmt(i === 0 ? left : x(i))}" y="${height - 20}" text-anchor="${anchor}">${series[i]?.day.slice(5) ?? ''}</text>`;
    })}
    <text x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle">Day (month-day)</text>
    <polyline class="created" points="${line((d) => d.created)}"></polyline>
    <polyline class="resolved" points="${line((d) => d.resolved)}"></polyline>
  </svg>
  <figcaption>
    <span class="legend"><span><span class="swatch created"></span>Created</span>
    <span><span class="swatch resolved"></span>Resolved</span></span>
    <span class="muted">${summary}</span>
  </figcaption>
</figure>`;
  const shown = series.filter(
    (d, i) =>
      i === 0 ||
      i === series.length - 1 ||
      d.created !== series[i - 1]?.created ||
      d.resolved !== series[i - 1]?.resolved,
  );
  const table = html`
<table class="chart-data" id="${id}-data">
  <caption>Issues in all and resolved by the end of each day (the first and last day, and every day either changed)</caption>
  <thead><tr><th scope="col">Day</th><th scope="col">Created</th><th scope="col">Resolved</th></tr></thead>
  <tbody>${shown.map(
    (d) =>
      html`<tr><td data-label="Day">${d.day}</td><td data-label="Created">${d.created}</td><td data-label="Resolved">${d.resolved}</td></tr>`,
  )}</tbody>
</table>`;
  return pair(figure, table);
}

/** Horizontal bars of named counts (issues by status, by severity), with their table. */
export function countBars(
  options: { id: string; title: string; label: string; unit: string },
  counts: readonly (readonly [string, number])[],
): Html {
  const row = 26;
  const top = 6;
  // Room for "in progress" at the phone's larger labels (see the stylesheet).
  const labelW = 116;
  const numberW = 40;
  const height = top * 2 + row * counts.length;
  const max = Math.max(1, ...counts.map(([, n]) => n));
  const barW = width - labelW - numberW;
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  const summary = `${options.title}: ${counts.map(([name, n]) => `${name} ${n}`).join(', ')}; ${total} in all.`;
  const figure = html`
<figure class="chart">
  <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${options.id}-title" xmlns="http://www.w3.org/2000/svg">
    <title id="${options.id}-title">${summary}</title>
    ${counts.map(([name, n], i) => {
      const y = top + i * row;
      return html`<g><title>${name}: ${n} ${options.unit}</title>
      <text x="${labelW - 6}" y="${y + 17}" text-anchor="end">${name}</text>
      <rect class="bar" x="${labelW}" y="${y + 4}" width="${fmt((n / max) * barW)}" height="${row - 8}"></rect>
      <text x="${fmt(labelW + (n / max) * barW + 4)}" y="${y + 17}">${n}</text></g>`;
    })}
  </svg>
  <figcaption class="muted">${summary}</figcaption>
</figure>`;
  const table = html`
<table class="chart-data" id="${options.id}-data">
  <caption>${options.title}</caption>
  <thead><tr><th scope="col">${options.label}</th><th scope="col">${capitalized(options.unit)}</th></tr></thead>
  <tbody>${counts.map(
    ([name, n]) =>
      html`<tr><td data-label="${options.label}">${name}</td><td data-label="${capitalized(options.unit)}">${n}</td></tr>`,
  )}</tbody>
</table>`;
  return pair(figure, table);
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** How many of the latest weeks the minutes chart draws (the table lists every week). */
export const chartedWeeks = 12;

/** Vertical bars of the minutes logged per ISO week (its latest weeks), with the table of every week. */
export function minutesChart(byWeek: Readonly<Record<string, number>>, id: string): Html {
  const weeks = Object.entries(byWeek).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const drawn = weeks.slice(-chartedWeeks);
  const height = 180;
  const left = 40;
  const top = 16;
  const bottom = 36;
  const plotH = height - top - bottom;
  const plotW = width - left - 4;
  const max = Math.max(1, ...drawn.map(([, n]) => n));
  const slot = drawn.length > 0 ? plotW / drawn.length : plotW;
  const total = weeks.reduce((sum, [, n]) => sum + n, 0);
  const summary =
    weeks.length === 0
      ? 'No time logged yet.'
      : `${total} minutes over ${weeks.length} weeks; at most ${Math.max(...weeks.map(([, n]) => n))} in a week.`;
  const every = Math.max(1, Math.ceil(drawn.length / 4));
  const figure = html`
<figure class="chart">
  <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title" xmlns="http://www.w3.org/2000/svg">
    <title id="${id}-title">Minutes logged per ISO week${weeks.length > chartedWeeks ? ` (the latest ${chartedWeeks} drawn)` : ''}. ${summary}</title>
    ${ticks(max).map(
      (n) =>
        html`<text x="${left - 4}" y="${fmt(top + plotH - (n / max) * plotH + 4)}" text-anchor="end">${n}</text>`,
    )}
    <line class="axis" x1="${left}" y1="${top + plotH + 0.5}" x2="${width}" y2="${top + plotH + 0.5}"></line>
    ${drawn.map(([week, n], i) => {
      const h = (n / max) * plotH;
      const x = left + i * slot;
      return html`<g><title>${week}: ${n} minutes</title><rect class="bar" x="${fmt(x + 2)}" y="${fmt(top + plotH - h)}" width="${fmt(Math.max(1, slot - 4))}" height="${fmt(h)}"></rect>${
        i % every === 0
          ? html`<text x="${fmt(x + slot / 2)}" y="${height - 20}" text-anchor="middle">${week.slice(5)}</text>`
          : null
      }</g>`;
    })}
    <text x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle">ISO week</text>
  </svg>
  <figcaption class="muted">${summary}</figcaption>
</figure>`;
  const table = html`
<table class="chart-data" id="${id}-data">
  <caption>Minutes logged per ISO week</caption>
  <thead><tr><th scope="col">Week</th><th scope="col">Minutes</th></tr></thead>
  <tbody>${weeks.map(
    ([week, n]) => html`<tr><td data-label="Week">${week}</td><td data-label="Minutes">${n}</td></tr>`,
  )}</tbody>
</table>`;
  return pair(figure, table);
}
