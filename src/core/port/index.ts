/**
 * The storage port: what every adapter implements, one file a store. It imports only the model,
 * so pipeline, families and webhooks stand on it and never the other way round.
 */
export * from './collection.js';
export * from './counter-store.js';
export * from './delivery-store.js';
export * from './dump-store.js';
export * from './errors.js';
export * from './idempotency-store.js';
export * from './label-store.js';
export * from './overdue-store.js';
export * from './rate-limit-store.js';
export * from './session-store.js';
export * from './signal-store.js';
export * from './storage.js';
export * from './storage-time-store.js';
export * from './tenancy-store.js';
export * from './token-store.js';
export * from './watch-store.js';
export * from './webhook-store.js';
