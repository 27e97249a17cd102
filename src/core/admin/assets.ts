/**
 * The admin pages' two static files. They are served from the core like the pages themselves,
 * so the Content-Security-Policy can forbid every inline style and script.
 */

export const assetBase = '/admin-assets';

const stylesheet = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --line: #d5d9e0; --bg: #fff;
  --accent: #2450c8; --danger: #b3261e; --panel: #f4f6fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a3abba; --line: #3a4150;
  --bg: #151922; --accent: #8fb0ff; --danger: #ff8a80; --panel: #1f2430; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between;
  padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
header .brand { font-weight: 600; }
header form { margin: 0; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input[type=text], input[type=email], input[type=password], select { width: 100%; max-width: 28rem;
  padding: .5rem; font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
  border-radius: 4px; }
fieldset { border: 1px solid var(--line); border-radius: 4px; max-width: 28rem; margin: .75rem 0; }
fieldset label { display: inline; font-weight: normal; margin: 0 1rem 0 .25rem; }
legend { font-weight: 600; }
button { font: inherit; padding: .45rem 1rem; border-radius: 4px; border: 1px solid var(--accent);
  background: var(--accent); color: var(--bg); cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button.danger { background: transparent; color: var(--danger); border-color: var(--danger); }
button:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid var(--accent);
  outline-offset: 2px; }
a { color: var(--accent); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 1rem; margin: 1rem 0; }
.alert { border-left: 4px solid var(--danger); padding: .5rem .75rem; background: var(--panel); }
.notice { border-left: 4px solid var(--accent); padding: .5rem .75rem; background: var(--panel); }
.muted { color: var(--muted); }
.token-value { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.token-value input { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; max-width: 36rem; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td form { margin: 0; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
td code { white-space: nowrap; }
@media (max-width: 40rem) {
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table, tbody, tr, td { display: block; width: 100%; }
  tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .75rem; padding: .25rem .5rem; }
  td { border: 0; padding: .25rem 0; }
  td::before { content: attr(data-label) ": "; font-weight: 600; }
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
};
