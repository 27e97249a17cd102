// Writes what the docs pages serve into dist/assets, so the installed package needs no markdown
// parser at run time: the API guide (docs/api.md) rendered to one HTML page. (The reference page
// at /docs is rendered by the server from the OpenAPI document.)
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

const root = new URL('../', import.meta.url);
const out = new URL('dist/assets/', root);
await mkdir(out, { recursive: true });

const markdown = await readFile(new URL('docs/api.md', root), 'utf8');
// The guide links the other docs by relative path, which the server does not serve (the page is at
// /docs/guide, so `client.md` was a 404): name them as files of the repository instead.
const article = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] }).replace(
  /<a href="([\w-]+)\.md(?:#[^"]*)?">(.*?)<\/a>/g,
  (_link, name, text) => `${text} (<code>docs/${name}.md</code> in the outcome-tracker repository)`,
);
const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>outcome-tracker API guide</title>
<style>
body { font: 16px/1.55 system-ui, sans-serif; max-width: 52rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; color: #1d1d1f; }
nav { border-bottom: 1px solid #ddd; padding-bottom: .5rem; margin-bottom: 1rem; font-size: 14px; }
main { overflow-wrap: break-word; }
pre { background: #f5f5f7; padding: .75rem 1rem; overflow-x: auto; border-radius: 6px; max-width: 100%; box-sizing: border-box; }
code { font: 13.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
/* A long name or path in a sentence wraps; code blocks and tables scroll inside their own box, so a phone's page never does. */
:not(pre) > code { overflow-wrap: anywhere; }
table { border-collapse: collapse; display: block; max-width: 100%; overflow-x: auto; } th, td { border: 1px solid #ddd; padding: .3rem .6rem; text-align: left; vertical-align: top; }
@media (max-width: 600px) { body { padding: .75rem .75rem 3rem; } }
</style>
</head>
<body>
<nav><a href="/docs">API reference</a> · <a href="/api/v1/openapi.json">OpenAPI document (JSON)</a></nav>
<main>
${article}
</main>
</body>
</html>
`;
await writeFile(new URL('guide.html', out), page);
console.log(`dist/assets: guide.html (${(page.length / 1e3).toFixed(0)} kB)`);
