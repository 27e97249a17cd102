import { defineFamily } from '../family.js';
import { batchRoutes } from './routes.js';
import { batchRequestSchema, batchResponseSchema } from './schema.js';

export const batchFamily = defineFamily({
  name: 'batch',
  routes: batchRoutes,
  about: 'Several changes in one request and one transaction: every one applies, or none does.',
  schemas: { responses: { BatchResults: batchResponseSchema }, requests: { Batch: batchRequestSchema } },
});
