import { z } from 'zod';
import { eventTypes } from '../../events.js';
import { webhookStatuses } from '../../model.js';
import { pageQuery } from '../../pipeline/pagination.js';
import { withoutReadOnly } from '../shared/schema.js';

/** Fields the service owns on a subscription. */
const readOnly = [
  'id',
  'version',
  'createdAt',
  'updatedAt',
  'accountId',
  'workspaceId',
  'secret',
  'disabledReason',
] as const;

const url = z.string().trim().min(1).max(2048);
const subscribedTypes = z
  .array(z.union([z.enum(eventTypes), z.literal('*')]))
  .min(1)
  .max(100)
  .transform((types) => [...new Set(types)]);
const description = z.string().max(1000).nullable();

export const webhookCreateSchema = withoutReadOnly(
  readOnly,
  z.strictObject({ url, eventTypes: subscribedTypes, description: description.optional() }),
);
export type WebhookCreate = z.output<typeof webhookCreateSchema>;

export const webhookPatchSchema = withoutReadOnly(
  readOnly,
  z.strictObject({
    url: url.optional(),
    eventTypes: subscribedTypes.optional(),
    description: description.optional(),
    status: z.enum(webhookStatuses).optional(),
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
