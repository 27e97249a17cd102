/**
 * The probes' paths, answered without a token, a transaction or the rate limit (see probes.ts).
 * A file of their own so the pipeline knows them without loading the OpenAPI document and every
 * family, as public-routes.ts would make it.
 */
export const probePaths = ['/healthz', '/readyz'] as const;
