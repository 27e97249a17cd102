/** The text of src/client/generated/openapi.ts for an OpenAPI document. */
export function clientTypesSource(document: unknown): Promise<string>;
