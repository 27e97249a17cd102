/**
 * outcome-tracker/testing: a real tracker for an app's own tests, in one call, with a clock the
 * test owns, webhooks captured in memory and deterministic seeding (docs/testing.md).
 */
export { durationMs, type TestClock } from './clock.js';
export {
  type AsUserOptions,
  type CaptureOptions,
  createTestTracker,
  type TestTracker,
  type TestTrackerOptions,
  type TestUser,
} from './create.js';
export type { Seeded, SeededMember, SeedOptions } from './seed.js';
export type { TestStorageOption } from './storage.js';
export type {
  CaptureAnswer,
  CapturedDelivery,
  CapturedOf,
  CaptureResponder,
  DeliveryMatch,
  WaitOptions,
  WebhookCapture,
} from './webhooks.js';
