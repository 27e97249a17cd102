import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type OpenApiDocument, openApiDocument } from '../../src/core/openapi/document.js';

/** What the checker needs of a response: its status, headers and raw body. */
export interface CheckedResponse {
  status: number;
  headers: Headers;
  text: string;
}

type Json = Record<string, unknown>;
interface ResponseObject {
  headers?: Record<string, Json>;
  content?: Record<string, { schema: Json }>;
}

// ajv-formats is CommonJS with a default export; under NodeNext its call signature sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const documentId = 'https://outcome-tracker.dev/openapi.json';

/**
 * The document's schemas with ajv (JSON Schema 2020-12, formats checked): answers a validator for
 * a schema of the document (refs to its components resolve), compiled once per pointer.
 */
export function compile(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: documentId, components: doc.components }, documentId);
  const cache = new Map<string, ValidateFunction>();
  return (pointer: string, schema: Json): ValidateFunction => {
    let validate = cache.get(pointer);
    if (!validate) {
      // Rebase the document's local refs (#/components/…) onto the added document.
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', `"${documentId}#/components/`),
      );
      validate = ajv.compile(rebased);
      cache.set(pointer, validate);
    }
    return validate;
  };
}

/** The documented path template a concrete path falls under, most literal segments first. */
function matchTemplate(doc: OpenApiDocument, path: string): string | null {
  const segments = path.split('/');
  let best: { template: string; literals: number } | null = null;
  for (const template of Object.keys(doc.paths)) {
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    let literals = 0;
    const fits = parts.every((part, i) => {
      if (/^\{[^}]+\}$/.test(part)) return segments[i] !== '';
      literals++;
      return part === segments[i];
    });
    if (fits && (!best || literals > best.literals)) best = { template, literals };
  }
  return best?.template ?? null;
}

const mediaTypeOf = (headers: Headers) => headers.get('content-type')?.split(';')[0]?.trim() ?? null;

/**
 * Checks a response against the OpenAPI document: its status must be documented for the path
 * template and method, its content type one documented for that status, its JSON body valid
 * against the schema, and its documented headers present when required and well-formed.
 * Answers the problems found (none when it conforms). Paths outside the document that are not
 * under /api/v1 (the admin pages, /docs) are not API responses and are not checked.
 */
export function createResponseChecker(doc: OpenApiDocument = openApiDocument()) {
  const validator = compile(doc);
  const components = doc.components as unknown as { responses: Record<string, ResponseObject> };
  const resolve = (response: Json): ResponseObject => {
    const ref = response.$ref;
    if (typeof ref !== 'string') return response as ResponseObject;
    const name = ref.replace('#/components/responses/', '');
    const found = components.responses[name];
    if (!found) throw new Error(`unknown response ${ref}`);
    return found;
  };
  const problem = resolve({ $ref: '#/components/responses/NotFound' });

  return (method: string, url: string, res: CheckedResponse): string[] => {
    const path = url.split('?')[0] ?? url;
    const verb = (method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()).toLowerCase();
    const where = `${method.toUpperCase()} ${path} → ${res.status}`;
    const template = matchTemplate(doc, path);
    const operation = template ? (doc.paths[template]?.[verb] as Json | undefined) : undefined;

    let documented: ResponseObject;
    let label: string;
    if (operation) {
      const responses = operation.responses as Record<string, Json>;
      const found =
        responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`] ?? responses.default;
      if (!found)
        return [`${where}: status ${res.status} is not documented for ${verb.toUpperCase()} ${template}`];
      documented = resolve(found);
      label = `${template} ${verb} ${res.status}`;
    } else {
      if (!template && !path.startsWith('/api/v1/')) return [];
      // OPTIONS is answered on every known path, as HTTP has it, not per operation.
      if (template && verb === 'options' && res.status === 204) {
        return res.headers.get('allow') && res.text === ''
          ? []
          : [`${where}: 204 to OPTIONS without Allow, or with a body`];
      }
      // Answered before routing or for a method the path lacks: only these problems are possible.
      const allowed = template ? [401, 405, 429, 500] : [401, 404, 429, 500];
      if (!allowed.includes(res.status)) {
        return [
          `${where}: ${template ? `${verb.toUpperCase()} is not documented for ${template}` : 'no documented path'} and ${res.status} is not a routing problem`,
        ];
      }
      const errors: string[] = [];
      if (res.status === 405 && !res.headers.get('allow'))
        errors.push(`${where}: 405 without an Allow header`);
      documented = problem;
      label = `routing problem ${res.status}`;
      return [...errors, ...checkAgainst(documented, label, where, method, res, validator)];
    }
    return checkAgainst(documented, label, where, method, res, validator);
  };
}

function checkAgainst(
  documented: ResponseObject,
  label: string,
  where: string,
  method: string,
  res: CheckedResponse,
  validator: ReturnType<typeof compile>,
): string[] {
  const errors: string[] = [];
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const value = res.headers.get(name);
    const required = header.required === true;
    if (value === null) {
      if (required) errors.push(`${where}: the required header ${name} is missing`);
      continue;
    }
    const schema = (header.schema ?? {}) as Json;
    const validate = validator(`header ${name} ${JSON.stringify(schema)}`, schema);
    if (!validate(value))
      errors.push(`${where}: header ${name}: ${JSON.stringify(value)} ${describe(validate)}`);
  }
  const content = documented.content;
  const hasBody = res.text !== '' && method.toUpperCase() !== 'HEAD';
  if (!content) {
    if (hasBody) errors.push(`${where}: a body where the document says there is none`);
    return errors;
  }
  const media = mediaTypeOf(res.headers);
  const entry = media ? content[media] : undefined;
  if (!entry) {
    errors.push(`${where}: content type ${media} is not one of ${Object.keys(content).join(', ')}`);
    return errors;
  }
  if (!hasBody || !media?.endsWith('json')) return errors;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return [...errors, `${where}: the body is not JSON`];
  }
  const validate = validator(`${label} ${media}`, entry.schema);
  if (!validate(body)) errors.push(`${where}: body ${describe(validate)}`);
  return errors;
}

const describe = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('; ');
