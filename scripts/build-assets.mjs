// Copies what the docs pages serve into dist/assets, so the installed package needs neither the
// renderer's package nor a markdown parser at run time: Scalar's standalone bundle, and the API
// guide (docs/api.md) rendered to one HTML page.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

const root = new URL('../', import.meta.url);
const out = new URL('dist/assets/', root);
await mkdir(out, { recursive: true });

const require = createRequire(import.meta.url);
const scalar = await readFile(require.resolve('@scalar/api-reference/browser/standalone.js'));
await writeFile(new URL('scalar.js', out), scalar);

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
pre { background: #f5f5f7; padding: .75rem 1rem; overflow-x: auto; border-radius: 6px; }
code { font: 13.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
table { border-collapse: collapse; } th, td { border: 1px solid #ddd; padding: .3rem .6rem; text-align: left; vertical-align: top; }
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
console.log(
  `dist/assets: scalar.js (${(scalar.length / 1e6).toFixed(1)} MB), guide.html (${(page.length / 1e3).toFixed(0)} kB)`,
);
