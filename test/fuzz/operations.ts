import type { OpenApiDocument } from '../../src/core/openapi/document.js';

/** A JSON Schema as the OpenAPI document holds it. */
export type Schema = Record<string, unknown>;

/** One parameter of an operation, its `$ref` resolved. */
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

/** One operation of the document: what the fuzzer needs to build requests for it. */
export interface Operation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/api/v1/issues/{id}`. */
  template: string;
  parameters: Parameter[];
  /** The JSON request body's schema, or null when the operation takes no body. */
  body: Schema | null;
  bodyRequired: boolean;
  /** Whether the operation needs no token (`security: []`). */
  open: boolean;
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];

/** Follows a local `#/components/…` reference; any other value is answered as it is. */
export function resolver(doc: OpenApiDocument) {
  return (schema: Schema): Schema => {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string'; hops++) {
      if (hops > 20) throw new Error(`reference loop at ${current.$ref}`);
      const parts = current.$ref.replace(/^#\//, '').split('/');
      let target: unknown = doc;
      for (const part of parts) target = (target as Record<string, unknown>)[part];
      if (target === undefined) throw new Error(`unknown reference ${current.$ref}`);
      current = target as Schema;
    }
    return current;
  };
}

/** Every operation the document declares, in document order. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const resolve = resolver(doc);
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item as Record<string, Schema>)) {
      if (!methods.includes(method)) continue;
      const parameters = ((raw.parameters ?? []) as Schema[]).map((p) => {
        const resolved = resolve(p);
        return {
          name: resolved.name as string,
          in: resolved.in as Parameter['in'],
          required: resolved.required === true,
          schema: (resolved.schema ?? {}) as Schema,
        };
      });
      const requestBody = raw.requestBody ? resolve(raw.requestBody as Schema) : null;
      const content = requestBody?.content as Record<string, { schema: Schema }> | undefined;
      operations.push({
        operationId: raw.operationId as string,
        method: method.toUpperCase(),
        template,
        parameters,
        body: content?.['application/json']?.schema ?? null,
        bodyRequired: requestBody?.required === true,
        open: Array.isArray(raw.security) && raw.security.length === 0,
      });
    }
  }
  return operations;
}
