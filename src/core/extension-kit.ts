/**
 * What an extension (the admin area in src/admin, the MCP server in src/mcp) builds on: the core's
 * public entry (`index.ts`, which carries the extension interface of extension.ts) and the
 * internals its pages and tools run, named here once. Extensions import only this file and
 * `index.ts` (`npm run check:layers` holds them to it), so the core's insides can move freely:
 * a move changes a line here, not a page.
 */

export { canonicalJson } from './canonical-json.js';
export { invalidReference } from './errors.js';
export { findIssue } from './families/issues/operations.js';
export { issueKeyPattern } from './families/issues/schema.js';
export { inviteMember, type MemberInvite } from './families/members/invite.js';
export {
  createMember,
  getMember,
  listMembers,
  type MemberView,
  removeMember,
  tokenIsLive,
  updateMember,
} from './families/members/operations.js';
export { memberCreateSchema, memberPatchSchema } from './families/members/schema.js';
export { allRows, type OutcomeSummary, outcomeSummary } from './families/outcomes/summary.js';
export { projectKey } from './families/projects/schema.js';
export {
  createWebhook,
  deleteWebhook,
  getWebhook,
  retryDelivery,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookView,
} from './families/webhooks/operations.js';
export { replayWebhook, webhookReplaySchema } from './families/webhooks/replay.js';
export { webhookCreateSchema, webhookPatchSchema } from './families/webhooks/schema.js';
export { testWebhook } from './families/webhooks/test-delivery.js';
export * from './index.js';
export { issueSeverities, issueStatuses, roles, tokenScopes } from './model.js';
export { buildOpenApiDocument, type OpenApiDocument, openApiDocument } from './openapi/document.js';
export { openApiPath } from './openapi/operations.js';
export { type Access, authenticate, authorize } from './pipeline/auth.js';
export { type Grant, grantLost } from './pipeline/authority.js';
export { checkBodySize } from './pipeline/body.js';
export { noneMatchNames } from './pipeline/conditional.js';
export { operationContext, type Services, tenantOf } from './pipeline/context.js';
export { maxPageSize } from './pipeline/pagination.js';
export { slidingWindow } from './pipeline/rate-limit.js';
export type { HttpMethod, Route, RouteKind } from './pipeline/route.js';
export { randomSecret } from './random-secret.js';
export { isoTime } from './runtime.js';
export { sha256Hex } from './sha256.js';
export { acceptInvite, inviteMarker, openInvite } from './tenancy/invites.js';
export { issueToken, tokenLifetimesInDays } from './tenancy/operations.js';
export {
  hashPassword,
  minPasswordLength,
  needsRehash,
  owaspScryptCost,
  type ScryptCost,
  verifyPassword,
} from './tenancy/password.js';
export { webhookTestEvent } from './webhooks/events.js';
export { presentWebhook } from './webhooks/present.js';
