/**
 * The admin pages' two static files. They are served from the core like the pages themselves,
 * so the Content-Security-Policy can forbid every inline style and script.
 */

export const assetBase = '/admin-assets';

const stylesheet = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --line: #d5d9e0; --bg: #fff;
  --accent: #2450c8; --danger: #b3261e; --panel: #f4f6fa; --ok: #1b7a3d; --warn: #8a5a00;
  --ok-bg: #e3f4e8; --danger-bg: #fbe7e6; --warn-bg: #fdf1d8; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a3abba; --line: #3a4150;
  --bg: #151922; --accent: #8fb0ff; --danger: #ff8a80; --panel: #1f2430; --ok: #7ddc9a; --warn: #f2c46d;
  --ok-bg: #1d3326; --danger-bg: #3a2220; --warn-bg: #3a301a; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem; z-index: 1; }
.skip:focus { left: .5rem; }
header { border-bottom: 1px solid var(--line); background: var(--panel); }
header .bar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between;
  max-width: 64rem; margin: 0 auto; padding: .75rem 1rem; }
header .brand { font-weight: 600; }
header form { margin: 0; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
/* The tabs wrap rather than scroll: four short labels, none hidden off-screen on a phone. */
nav.sections { max-width: 64rem; margin: 0 auto; padding: 0 1rem; }
nav.sections ul { display: flex; flex-wrap: wrap; gap: 0 .25rem; list-style: none; margin: 0; padding: 0; }
nav.sections a { display: block; padding: .5rem .75rem; text-decoration: none; color: var(--fg);
  border-bottom: 3px solid transparent; white-space: nowrap; }
nav.sections a:hover { border-bottom-color: var(--line); }
nav.sections a[aria-current=page] { border-bottom-color: var(--accent); font-weight: 600; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input[type=text], input[type=email], input[type=password], input[type=url], select, textarea { width: 100%;
  max-width: 28rem; padding: .5rem; font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 4px; }
fieldset { border: 1px solid var(--line); border-radius: 4px; max-width: 40rem; margin: .75rem 0; }
fieldset label { display: inline; font-weight: normal; margin: 0 1rem 0 .25rem; }
[hidden] { display: none !important; }
fieldset.events { max-width: 48rem; }
fieldset.events > p { margin: .5rem 0; }
fieldset.choices legend { font-weight: 600; text-transform: capitalize; }
fieldset.choices { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: .25rem .5rem; }
fieldset.choices legend { grid-column: 1 / -1; }
legend { font-weight: 600; }
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
button, .button { font: inherit; padding: .45rem 1rem; border-radius: 4px; border: 1px solid var(--accent);
  background: var(--accent); color: var(--bg); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: transparent; color: var(--accent); }
button.danger, .button.danger { background: transparent; color: var(--danger); border-color: var(--danger); }
button.danger.solid { background: var(--danger); color: var(--bg); }
button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, a:focus-visible {
  outline: 3px solid var(--accent); outline-offset: 2px; }
a { color: var(--accent); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 1rem; margin: 1rem 0; }
.panel > h2:first-child, .panel > h3:first-child { margin-top: 0; }
.alert { border-left: 4px solid var(--danger); padding: .5rem .75rem; background: var(--danger-bg); }
.notice { border-left: 4px solid var(--accent); padding: .5rem .75rem; background: var(--panel); }
.muted { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.token-value { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.token-value input { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; max-width: 36rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .75rem 0; }
.actions form { margin: 0; }
.inline { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.inline label { margin: 0; }
.inline select { width: auto; }
/* In a table cell the role select and its Save button stay on one line. */
td .inline { flex-wrap: nowrap; }
td.email { overflow-wrap: anywhere; }
/* Times wrap between date and hour: nine columns of nowrap times made the tokens table 1,369 px wide. */
td time { white-space: normal; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 1rem; margin: 1rem 0;
  padding: 0; list-style: none; }
.cards li { border: 1px solid var(--line); border-radius: 6px; padding: 1rem; background: var(--panel); }
.cards h2 { margin: 0 0 .25rem; font-size: 1.1rem; }
.cards p { margin: .25rem 0 0; }
.badge { display: inline-block; padding: 0 .5rem; border-radius: 999px; font-size: .85rem; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; }
.badge.ok { color: var(--ok); background: var(--ok-bg); }
.badge.bad { color: var(--danger); background: var(--danger-bg); }
.badge.wait { color: var(--warn); background: var(--warn-bg); }
.badge.off { color: var(--muted); }
dl.details { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .5rem 0; }
dl.details dt { font-weight: 600; }
dl.details dd { margin: 0; overflow-wrap: anywhere; }
pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; background: var(--panel);
  border: 1px solid var(--line); border-radius: 4px; padding: .75rem; overflow: auto; max-height: 24rem;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.chart { max-width: 40rem; }
.chart svg { width: 100%; height: auto; display: block; }
.chart .ok { fill: var(--ok); }
.chart .bad { fill: var(--danger); }
.chart .axis { stroke: var(--line); }
.chart text { fill: var(--muted); font-size: 12px; }
.chart .bar { fill: var(--accent); }
.chart .grid { stroke: var(--line); stroke-dasharray: 2 3; }
.chart polyline { fill: none; stroke-width: 2.5; }
.chart polyline.created { stroke: var(--accent); }
.chart polyline.resolved { stroke: var(--ok); }
/* A chart and the table of its numbers side by side; stacked on a phone (below). */
.chart-pair { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem 1.5rem;
  align-items: start; margin: .5rem 0 1.5rem; }
.chart-pair .chart { margin: 0; }
.chart-data caption { text-align: left; font-size: .9rem; color: var(--muted); padding-bottom: .25rem; }
.chart-data th, .chart-data td { padding: .2rem .5rem; }
.progress { display: flex; flex-wrap: wrap; gap: .25rem .5rem; align-items: center; }
.progress progress { width: 8rem; height: .9rem; accent-color: var(--ok); }
.crumbs { margin: 0 0 1rem; }
.legend { display: flex; gap: 1rem; font-size: .9rem; }
.legend .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; vertical-align: middle;
  margin-right: .25rem; }
.swatch.ok { background: var(--ok); }
.swatch.bad { background: var(--danger); }
.swatch.created { background: var(--accent); }
.swatch.resolved { background: var(--ok); }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td form { margin: 0; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
td code { white-space: nowrap; }
td.url { overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table, tbody, tr, td { display: block; width: 100%; }
  tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .75rem; padding: .25rem .5rem; }
  td { border: 0; padding: .25rem 0; }
  td::before { content: attr(data-label) ": "; font-weight: 600; }
  /* Two short fields a line, the first (name, email, URL) and any form across: a card per member was
     six lines, and ten members a 3,500 px page. */
  tr { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0 .75rem; }
  td:first-child, td:has(form.inline) { grid-column: 1 / -1; }
  td:has(form.inline) { display: flex; flex-wrap: wrap; gap: .25rem .5rem; align-items: center; }
  td[data-label="Action"]::before, td.email::before { content: none; }
  td.email { font-weight: 600; }
  td code { white-space: normal; overflow-wrap: anywhere; }
  dl.details { grid-template-columns: 1fr; }
  dl.details dd { margin-bottom: .5rem; }
  /* The chart shrinks to the screen with its text: larger units keep the hour labels readable (12 px at 390 px). */
  .chart text { font-size: 16px; }
  .chart-pair { grid-template-columns: minmax(0, 1fr); }
  /* A chart's table has two or three short columns: it stays a table, not a card a row. */
  table.chart-data { display: table; }
  .chart-data caption { display: table-caption; }
  .chart-data thead { position: static; width: auto; height: auto; overflow: visible; clip: auto;
    display: table-header-group; }
  .chart-data tbody { display: table-row-group; }
  .chart-data tr { display: table-row; border: 0; border-radius: 0; margin: 0; padding: 0; }
  .chart-data td { display: table-cell; width: auto; border-bottom: 1px solid var(--line); padding: .2rem .5rem; }
  .chart-data td::before { content: none; }
  nav.sections { padding: 0 .5rem; }
  nav.sections ul { gap: 0; }
  nav.sections a { padding: .5rem .4rem; font-size: .95rem; }
  header .bar { padding: .5rem; }
}
`;

// Progressive enhancement: without JavaScript the token stays selectable in its read-only field.
const copyScript = `
document.querySelectorAll('[data-copy-target]').forEach(function (button) {
  var field = document.getElementById(button.getAttribute('data-copy-target'));
  var status = document.getElementById(button.getAttribute('data-copy-status'));
  if (!field) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    var done = function (message) { if (status) status.textContent = message; };
    field.select();
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(function () { done('Copied to the clipboard.'); },
        function () { done('Press Ctrl+C (or Cmd+C) to copy the selected token.'); });
    } else {
      done(document.execCommand && document.execCommand('copy') ? 'Copied to the clipboard.'
        : 'Press Ctrl+C (or Cmd+C) to copy the selected token.');
    }
  });
});
`;

// Progressive enhancement: with JavaScript, a search field narrows the event checkboxes (and their
// groups) to those whose name holds what was typed; checked ones stay checked, hidden or not.
const eventFilterScript = `
document.querySelectorAll('[data-event-picker]').forEach(function (picker) {
  var field = picker.querySelector('[data-event-filter]');
  if (!field) return;
  field.parentElement.hidden = false;
  field.addEventListener('input', function () {
    var wanted = field.value.trim().toLowerCase();
    picker.querySelectorAll('[data-event-group]').forEach(function (group) {
      var shown = 0;
      group.querySelectorAll('[data-event]').forEach(function (item) {
        var match = item.getAttribute('data-event').indexOf(wanted) !== -1;
        item.hidden = !match;
        if (match) shown++;
      });
      group.hidden = shown === 0;
    });
  });
});
`;

// Served so that browsers asking for an icon get one instead of a 404.
const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#2450c8"/>' +
  '<path d="M5 8.5l2 2 4-5" stroke="#fff" stroke-width="1.8" fill="none"/></svg>';

/** The static files by path. */
export const assets: Readonly<Record<string, { contentType: string; body: string }>> = {
  [`${assetBase}/admin.css`]: { contentType: 'text/css; charset=utf-8', body: stylesheet.trimStart() },
  [`${assetBase}/icon.svg`]: { contentType: 'image/svg+xml', body: icon },
  [`${assetBase}/copy-token.js`]: {
    contentType: 'text/javascript; charset=utf-8',
    body: copyScript.trimStart(),
  },
  [`${assetBase}/event-filter.js`]: {
    contentType: 'text/javascript; charset=utf-8',
    body: eventFilterScript.trimStart(),
  },
};
