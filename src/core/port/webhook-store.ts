import type { WebhookSubscription } from '../model.js';
import type { ListResult } from './collection.js';

export interface WebhookStore {
  insert(subscription: WebhookSubscription): Promise<void>;
  /** The subscription with this id in this account, or null. */
  get(accountId: string, id: string): Promise<WebhookSubscription | null>;
  /** The account's subscriptions, newest first, keyset-paged like collections. */
  list(query: {
    accountId: string;
    status?: WebhookSubscription['status'];
    after?: { createdAt: string; id: string };
    limit: number;
  }): Promise<ListResult<WebhookSubscription>>;
  /** Compare-and-set on version, as Collection.update. */
  update(subscription: WebhookSubscription, expectedVersion: number): Promise<void>;
  /** Deletes the subscription and its deliveries; returns whether it existed. */
  delete(accountId: string, id: string): Promise<boolean>;
  /** The account's active subscriptions that want this event type (listed, or `*`). */
  activeFor(accountId: string, eventType: string): Promise<WebhookSubscription[]>;
}
