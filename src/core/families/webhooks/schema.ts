import { z } from 'zod';
import { deliveryStatuses, signatureSchemes, webhookStatuses } from '../../model.js';
import { pageQuery, queryInteger } from '../../pipeline/pagination.js';
import { eventTypes, unknownEventType } from '../events.js';
import {
  idOf,
  nonBlank,
  pageOf,
  serviceOwnedFields,
  timestampOut,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';

/** Fields the service owns on a subscription (userId too: ignored like in every other body). */
const readOnly = [...serviceOwnedFields, 'secret', 'disabledReason'] as const;

/**
 * A receiver's URL. The document says https (the default: `serve --allow-private-webhooks`
 * accepts http:// and private addresses too, more than it says); the SSRF guard judges the rest.
 */
const url = nonBlank().max(2048).meta({ format: 'uri', pattern: '^https://' });
/** An event type of the catalog, or `*` for all of them; a wrong one is named in the error. */
const subscribedType = z.enum([...eventTypes, '*'], { error: unknownEventType('"*" or ') });
const subscribedTypes = z
  .array(subscribedType)
  .min(1)
  .max(100)
  .transform((types) => [...new Set(types)]);
const description = z.string().max(1000).nullable();
const signatureScheme = z
  .enum(signatureSchemes)
  .describe(
    'How deliveries are signed: `stripe` (X-Service-Signature), `standard` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) or `both`',
  );

export const webhookCreateSchema = withoutReadOnly(
  readOnly,
  z.strictObject({
    url,
    eventTypes: subscribedTypes,
    description: description.optional(),
    signatureScheme: signatureScheme.optional(),
  }),
);
export type WebhookCreate = z.output<typeof webhookCreateSchema>;

export const webhookPatchSchema = withoutReadOnly(
  readOnly,
  z.strictObject({
    url: url.optional(),
    eventTypes: subscribedTypes.optional(),
    description: description.optional(),
    status: z.enum(webhookStatuses).optional(),
    signatureScheme: signatureScheme.optional(),
  }),
);
export type WebhookPatch = z.output<typeof webhookPatchSchema>;

export const webhookListQuerySchema = z.strictObject({
  ...pageQuery,
  status: z.enum(webhookStatuses).optional(),
});
export type WebhookListQuery = z.output<typeof webhookListQuerySchema>;

export const deliveryListQuerySchema = z.strictObject({ ...pageQuery });
export type DeliveryListQuery = z.output<typeof deliveryListQuerySchema>;

/** A subscription as the API answers it: never with its secret. */
export const webhookSchema = z.strictObject({
  ...versionedFields('wh'),
  accountId: idOf('acct'),
  url: z.string(),
  eventTypes: z.array(subscribedType),
  description: z.string().nullable(),
  status: z.enum(webhookStatuses),
  disabledReason: z.string().nullable().describe('Why the service disabled it: gone or failing'),
  signatureScheme,
});
export const webhookPageSchema = pageOf(webhookSchema);

// A regex rather than startsWith: JSON Schema has a pattern for it, and no "starts_with" format.
const secret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9_-]{43,}$/)
  .describe('The signing secret, shown in this answer only');

/** The answer of a create: the only time the secret is shown (a replay answers null). */
export const webhookCreatedSchema = webhookSchema.extend({
  secret: secret
    .nullable()
    .describe(
      'The signing secret, shown in the 201 only; null in a replay (200, Idempotent-Replayed: true), since the secret is not stored with the key',
    ),
});

/** The answer of rotate-secret: the new secret, and until when the old one still signs. */
export const webhookRotatedSchema = webhookSchema.extend({
  secret: secret
    .nullable()
    .describe(
      'The new signing secret, shown in this answer only; null in a replay of its Idempotency-Key (Idempotent-Replayed: true), since the secret is not stored with the key',
    ),
  previousSecretExpiresAt: timestampOut,
});

/** One delivery of an event to a subscription, and how its attempts went. */
export const deliverySchema = z.strictObject({
  id: idOf('dlv'),
  subscriptionId: idOf('wh'),
  eventId: z.uuid(),
  eventType: z.enum(eventTypes),
  status: z
    .enum(deliveryStatuses)
    .describe('pending (waiting for its next attempt), sending (an attempt in flight), delivered or failed'),
  attempts: z.number().int().min(0).describe('Attempts made so far, retries through the API included'),
  nextAttemptAt: timestampOut.nullable(),
  lastAttemptAt: timestampOut.nullable(),
  lastResponseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastDurationMs: z.number().min(0).nullable(),
  deliveredAt: timestampOut.nullable(),
  createdAt: timestampOut,
  updatedAt: timestampOut,
});
export const deliveryPageSchema = pageOf(deliverySchema);

const headers = z.record(z.string(), z.string());

/** One attempt of a delivery: the exact request sent and the first bytes of the answer. */
export const attemptSchema = z.strictObject({
  number: z.number().int().min(1),
  startedAt: timestampOut,
  durationMs: z.number().min(0),
  succeeded: z.boolean().describe('Whether the receiver answered 2xx'),
  request: z.strictObject({
    url: z.string(),
    headers: headers.describe('The headers as sent, signature included'),
    body: z.string().describe('The exact body sent (the same bytes on every attempt)'),
  }),
  response: z
    .strictObject({
      status: z.number().int(),
      headers: headers.describe('Header names in lower case'),
      body: z.string().describe('The first 4096 bytes of the body, decoded as UTF-8'),
      bodyTruncated: z.boolean(),
    })
    .nullable()
    .describe('null when no answer came (see error)'),
  error: z.string().nullable(),
});

/** A delivery with its payload and its attempts (the latest 50, oldest first). */
export const deliveryDetailSchema = deliverySchema.extend({
  payload: z.string().describe('The exact body sent on every attempt'),
  attemptLog: z.array(attemptSchema),
});

export const deliveryStatsQuerySchema = z.strictObject({
  hours: queryInteger((n) => n.min(1).max(168).default(24)),
});

/** Attempts per hour: succeeded (2xx) and failed, every hour of the window listed. */
export const deliveryStatsSchema = z.strictObject({
  since: timestampOut,
  hours: z.array(
    z.strictObject({
      hour: timestampOut,
      succeeded: z.number().int().min(0),
      failed: z.number().int().min(0),
    }),
  ),
});

/** The answer of POST /webhooks/{id}/test (CONTRACT §6). */
export const webhookTestResultSchema = z.strictObject({
  eventId: z.uuid(),
  delivered: z.boolean(),
  responseStatus: z.number().int().nullable().describe("The receiver's HTTP status; null when none came"),
  durationMs: z.number().min(0),
  error: z.string().nullable(),
});
