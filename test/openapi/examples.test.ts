import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMount } from '../../src/core/edge/mount.js';
import { eventTypes } from '../../src/core/families/events.js';
import { buildOpenApiDocument } from '../../src/core/openapi/document.js';
import { servedDocument } from '../../src/core/openapi/served-document.js';
import { routes } from '../../src/core/routes.js';
import { compile } from './response-validator.js';

/**
 * The operationIds the families of test/families/ pin, each in its `operation-ids.json`: pinned
 * there so that a new family adds no line to the list below, and still fails that test when one is renamed.
 */
function familyPinnedOperationIds(): string[] {
  const folder = new URL('../families/', import.meta.url);
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((family) => {
    const file = new URL(`${family}/operation-ids.json`, folder);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as string[]) : [];
  });
}

type Json = Record<string, unknown>;
interface MediaType {
  schema: Json;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, Json>;
}

const doc = buildOpenApiDocument();
const validator = compile(doc);
const components = doc.components as unknown as { responses: Record<string, Json> };

/** A response as written, or the component it refers to. */
const resolve = (response: Json): Json =>
  typeof response.$ref === 'string'
    ? (components.responses[response.$ref.replace('#/components/responses/', '')] ?? {})
    : response;

/** Every operation of the document: the paths and the webhook events, with a name for messages. */
const operations = [
  ...Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      name: `${method.toUpperCase()} ${path}`,
      op: op as unknown as Operation,
      event: false,
    })),
  ),
  ...Object.entries(doc.webhooks).map(([type, item]) => ({
    name: `event ${type}`,
    op: item.post as unknown as Operation,
    event: true,
  })),
];

/** Each media type of an operation's request and responses, with where it sits, for messages. */
function mediaTypes(op: Operation): { where: string; status: string | null; media: MediaType }[] {
  const request = Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => ({
    where: `request ${type}`,
    status: null,
    media,
  }));
  const responses = Object.entries(op.responses).flatMap(([status, response]) =>
    Object.entries((resolve(response).content ?? {}) as Record<string, MediaType>).map(([type, media]) => ({
      where: `${status} ${type}`,
      status,
      media,
    })),
  );
  return [...request, ...responses];
}

describe('the examples of the API reference', () => {
  it('walks every operation: the paths and the webhook events', () => {
    // The route table, the three public endpoints (document, liveness, readiness), the events.
    expect(operations).toHaveLength(routes.length + 3 + eventTypes.length);
  });

  it('gives every operation an operationId, a summary and a description, and every tag a description', () => {
    const lacking = operations
      .filter(({ op }) => !op.operationId || !op.summary?.trim() || !op.description?.trim())
      .map(({ name }) => name);
    expect(lacking).toEqual([]);
    const tags = doc.tags as { name: string; description?: string }[];
    expect(tags.filter((tag) => !tag.description?.trim()).map((tag) => tag.name)).toEqual([]);
  });

  it('shows a request example on every operation with a body, and a response example on every operation', () => {
    const lacking = operations.flatMap(({ name, op, event }) => {
      const media = mediaTypes(op);
      const missing = media
        .filter(({ media }) => media.example === undefined)
        .map(({ where }) => `${name}: ${where}`);
      // A 204 has no body to show, but its error answers have. An event is a request to the
      // subscriber: its payload is the example; what the subscriber answers has no body.
      const answered = media.some(({ status, media }) => status !== null && media.example !== undefined);
      return event || answered ? missing : [...missing, `${name}: no response example`];
    });
    expect(lacking).toEqual([]);
  });

  it('validates every example against the schema it illustrates', () => {
    const invalid: string[] = [];
    let checked = 0;
    for (const { name, op } of operations) {
      for (const { where, media } of mediaTypes(op)) {
        if (media.example === undefined) continue;
        // Keyed by the schema: most are a $ref to a component, compiled once.
        const validate = validator(JSON.stringify(media.schema), media.schema);
        checked++;
        if (!validate(media.example)) invalid.push(`${name}: ${where}: ${JSON.stringify(validate.errors)}`);
      }
    }
    expect(invalid).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  });

  it('would refuse an example that breaks its schema', () => {
    const broken = buildOpenApiDocument();
    const get = broken.paths['/api/v1/issues/{id}']?.get as unknown as Operation;
    const media = (get.responses['200'] as { content: Record<string, MediaType> }).content[
      'application/json'
    ];
    if (!media) throw new Error('GET /issues/{id} has no JSON answer');
    media.example = { ...(media.example as Json), status: 'done' };
    const validate = compile(broken)('broken', media.schema);
    expect(validate(media.example)).toBe(false);
  });

  it('names each operation as it always has: an operationId renamed would rename a method of generated clients', () => {
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((op) => String(op.operationId)),
    );
    // A family made by `npm run new-family` pins its own in its test folder.
    const pinnedByFamilies = familyPinnedOperationIds();
    expect(pinnedByFamilies.filter((id) => !ids.includes(id))).toEqual([]);
    expect(ids.filter((id) => !pinnedByFamilies.includes(id))).toEqual([
      ...['listProjects', 'createProject', 'getProject', 'updateProject'],
      ...['listOutcomes', 'createOutcome', 'getOutcome', 'updateOutcome', 'deleteOutcome'],
      ...['archiveOutcome', 'unarchiveOutcome', 'getOutcomeSummary'],
      ...['listContextItems', 'createContextItem', 'getContextItem', 'deleteContextItem'],
      ...['listDecisions', 'createDecision', 'getDecision', 'updateDecision'],
      ...['listIssues', 'createIssue', 'getIssue', 'updateIssue', 'transitionIssue'],
      ...['archiveIssue', 'unarchiveIssue'],
      ...['listIssueRelations', 'createIssueRelation', 'getIssueRelation', 'deleteIssueRelation'],
      ...['listLabels'],
      ...['listTimeEntries', 'createTimeEntry', 'getTimeEntry', 'updateTimeEntry', 'deleteTimeEntry'],
      ...['listComments', 'createComment', 'getComment', 'updateComment', 'deleteComment'],
      ...['listViews', 'createView', 'getView', 'updateView', 'deleteView', 'listViewItems'],
      ...['listMembers', 'createMember', 'getMember', 'updateMember', 'deleteMember', 'inviteMember'],
      ...['listNotifications', 'markNotificationsRead'],
      ...['watchIssue', 'unwatchIssue', 'listIssueWatchers', 'watchOutcome', 'unwatchOutcome'],
      ...['listOutcomeWatchers'],
      ...['listWebhooks', 'createWebhook', 'getWebhook', 'updateWebhook', 'deleteWebhook'],
      ...[
        'rotateWebhookSecret',
        'testWebhook',
        'replayWebhook',
        'listWebhookDeliveries',
        'getWebhookDelivery',
      ],
      ...['retryWebhookDelivery', 'getWebhookDeliveryStats', 'listSignals', 'runBatch'],
      ...['getOpenApiDocument', 'getHealth', 'getReadiness'],
    ]);
  });

  it('links the API guide where the server serves it, under a mount too', async () => {
    const served = async (basePath?: string) => {
      const reply = await servedDocument(createMount(basePath))(undefined as never, undefined as never);
      return JSON.parse((reply as { text: { body: string } }).text.body).externalDocs.url;
    };
    expect(await served()).toBe('/docs/guide');
    expect(await served('/tracker/api/v1')).toBe('/tracker/docs/guide');
  });
});
