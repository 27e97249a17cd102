import { guidePathname, type OpenApiDocument, openApiPathname } from './document.js';

/**
 * The API reference as one server-rendered page: every operation and webhook event of the OpenAPI
 * document, grouped by tag, with its parameters, body and responses, and every schema. No script:
 * it reads at once on any device, where a client-side renderer took seconds and a megabyte first.
 */

type Node = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'patch', 'delete'] as const;

const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A description's text, its `code` spans kept (the document's descriptions use no other markdown). */
const prose = (text: unknown): string =>
  typeof text === 'string' ? escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>') : '';

const anchor = (text: string): string => text.replace(/[^A-Za-z0-9_-]+/g, '-');
const schemaAnchor = (name: string) => `schema-${anchor(name)}`;
const refName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

/** A component a `$ref` names (parameters, headers, schemas), or the node itself. */
function resolve(document: OpenApiDocument, node: unknown): Node {
  const ref = (node as Node | undefined)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return (node ?? {}) as Node;
  let found: unknown = document;
  for (const part of ref.slice(2).split('/')) found = (found as Node | undefined)?.[part];
  return (found ?? {}) as Node;
}

/** A schema's type in a few words: `string`, `Issue`, `array of Label`, `"open" | "done"`. */
function typeOf(schema: unknown): string {
  const s = (schema ?? {}) as Node;
  if (typeof s.$ref === 'string') {
    const name = refName(s.$ref);
    return `<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key])) return (s[key] as unknown[]).map(typeOf).join(' | ');
  }
  if (Array.isArray(s.allOf)) return (s.allOf as unknown[]).map(typeOf).join(' &amp; ');
  if (Array.isArray(s.enum)) return s.enum.map((value) => escapeHtml(JSON.stringify(value))).join(' | ');
  if (s.const !== undefined) return escapeHtml(JSON.stringify(s.const));
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  const named = types.map((type) => (type === 'array' ? `array of ${typeOf(s.items)}` : escapeHtml(type)));
  const format = typeof s.format === 'string' ? ` (${escapeHtml(s.format)})` : '';
  return named.length > 0 ? `${named.join(' | ')}${format}` : 'any';
}

/** The rows of an object schema's properties (an allOf's parts merged), or none for another schema. */
function propertyRows(document: OpenApiDocument, schema: unknown): string[] {
  const s = resolve(document, schema);
  const parts = Array.isArray(s.allOf) ? (s.allOf as unknown[]).map((part) => resolve(document, part)) : [s];
  return parts.flatMap((part) => {
    const required = new Set(Array.isArray(part.required) ? (part.required as string[]) : []);
    return Object.entries((part.properties ?? {}) as Record<string, Node>).map(
      ([name, property]) =>
        `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td>` +
        `<td>${typeOf(property)}</td><td>${prose(property.description)}</td></tr>`,
    );
  });
}

const table = (head: string[], rows: string[]): string =>
  rows.length === 0
    ? ''
    : `<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;

function operation(document: OpenApiDocument, method: string, path: string, op: Node): string {
  const id = anchor(String(op.operationId ?? `${method}-${path}`));
  const parameters = ((op.parameters ?? []) as unknown[]).map((p) => resolve(document, p));
  const parameterRows = parameters.map(
    (p) =>
      `<tr><td><code>${escapeHtml(String(p.name))}</code>${p.required ? ' <span class="req">required</span>' : ''}</td>` +
      `<td>${escapeHtml(String(p.in))}</td><td>${typeOf(p.schema)}</td><td>${prose(p.description)}</td></tr>`,
  );
  const body = resolve(document, op.requestBody);
  const bodyContent = Object.entries((body.content ?? {}) as Record<string, Node>);
  const bodyHtml = bodyContent
    .map(
      ([type, media]) =>
        `<p>Body (<code>${escapeHtml(type)}</code>${body.required ? ', required' : ''}): ${typeOf(media.schema)}</p>` +
        table(['field', 'type', ''], propertyRows(document, media.schema)),
    )
    .join('');
  const responses = Object.entries((op.responses ?? {}) as Record<string, unknown>).map(([status, r]) => {
    const response = resolve(document, r);
    const schemas = Object.entries((response.content ?? {}) as Record<string, Node>)
      .filter(([, media]) => media.schema)
      .map(([type, media]) => `${typeOf(media.schema)} (<code>${escapeHtml(type)}</code>)`);
    return `<li><strong>${escapeHtml(status)}</strong> ${prose(response.description)}${schemas.length ? ` ${schemas.join(', ')}` : ''}</li>`;
  });
  return `<section class="op" id="${id}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="summary">${prose(op.summary)}</p>
<p>${prose(op.description)}</p>
${table(['parameter', 'in', 'type', ''], parameterRows)}
${bodyHtml}
${responses.length ? `<p>Responses:</p><ul>${responses.join('')}</ul>` : ''}
</section>`;
}

interface Entry {
  method: string;
  path: string;
  op: Node;
}

/** The page, with the API's paths written as `outbound` serves them (a mount's prefix). */
export function referenceHtml(document: OpenApiDocument, outbound: (path: string) => string): string {
  const byTag = new Map<string, Entry[]>();
  const add = (path: string, item: Record<string, unknown>) => {
    for (const method of methods) {
      const op = item[method] as Node | undefined;
      if (!op) continue;
      const tag = String((op.tags as string[] | undefined)?.[0] ?? 'Other');
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  };
  for (const [path, item] of Object.entries(document.paths)) add(outbound(path), item);
  for (const [event, item] of Object.entries(document.webhooks)) add(event, item as Record<string, unknown>);
  const tags = (document.tags as Node[] | undefined) ?? [];
  const ordered = [
    ...tags.map((tag) => String(tag.name)).filter((name) => byTag.has(name)),
    ...[...byTag.keys()].filter((name) => !tags.some((tag) => tag.name === name)),
  ];
  const info = document.info as Node;
  const schemas = Object.entries(document.components.schemas);
  const toc = ordered
    .map((tag) => `<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a></li>`)
    .concat('<li><a href="#schemas">Schemas</a></li>');
  const sections = ordered.map((tag) => {
    const described = tags.find((t) => t.name === tag);
    return `<section id="tag-${anchor(tag)}">
<h2>${escapeHtml(tag)}</h2>
${described?.description ? `<p>${prose(described.description)}</p>` : ''}
${(byTag.get(tag) ?? []).map((e) => operation(document, e.method, e.path, e.op)).join('\n')}
</section>`;
  });
  const schemaSections = schemas.map(
    ([name, schema]) => `<section class="schema" id="${schemaAnchor(name)}">
<h3>${escapeHtml(name)}</h3>
<p>${prose((schema as Node).description)}</p>
${table(['field', 'type', ''], propertyRows(document, schema)) || `<p>${typeOf(schema)}</p>`}
</section>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(String(info.title))} reference</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d1d1f; }
nav.top { font-size: 14px; padding: 8px 16px; border-bottom: 1px solid #ddd; }
main { max-width: 60rem; margin: 0 auto; padding: 0 1.25rem 4rem; overflow-wrap: break-word; }
code { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.toc { columns: 12rem; padding-left: 1.2rem; }
.op { border-top: 1px solid #e5e5e5; padding-top: .5rem; }
.op h3 { font-size: 15px; margin-bottom: .2rem; }
.summary { font-weight: 600; margin-top: 0; }
.method { display: inline-block; min-width: 3.6em; font: 700 12px ui-monospace, monospace; padding: 2px 6px; border-radius: 4px; background: #eee; text-align: center; }
.get { background: #e3f1ff; } .post { background: #e4f7e6; } .patch, .put { background: #fff3d6; } .delete { background: #fde4e4; }
.req { font-size: 12px; color: #b3261e; }
.scroll { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; font-size: 14px; }
th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: left; vertical-align: top; }
@media (max-width: 600px) { main { padding: 0 .75rem 3rem; } }
</style>
</head>
<body>
<nav class="top"><a href="${guidePathname}">API guide</a> · <a href="${openApiPathname}">OpenAPI document (JSON)</a></nav>
<main>
<h1>${escapeHtml(String(info.title))}</h1>
<p>Version ${escapeHtml(String(info.version))}. ${prose(info.description)}</p>
<ul class="toc">${toc.join('')}</ul>
${sections.join('\n')}
<section id="schemas">
<h2>Schemas</h2>
${schemaSections.join('\n')}
</section>
</main>
</body>
</html>
`;
}
