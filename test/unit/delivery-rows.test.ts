import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryRows } from '../../src/adapters/memory/delivery-rows.js';
import { deleteWithUndo, setWithUndo, type Undo } from '../../src/adapters/memory/undo.js';
import { claimableAt } from '../../src/adapters/shared/claim-budget.js';
import type { WebhookDelivery } from '../../src/core/model.js';
import { sampleDelivery } from '../conformance/fixtures.js';

const ids = ['dlv_a', 'dlv_b', 'dlv_c', 'dlv_d'];
const subscriptions = ['whk_1', 'whk_2'];
const statuses = ['pending', 'sending', 'delivered', 'failed'] as const;

type Step =
  | { kind: 'set'; id: string; subscriptionId: string; status: (typeof statuses)[number] }
  | { kind: 'delete'; id: string }
  | { kind: 'rollback' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    id: fc.constantFrom(...ids),
    subscriptionId: fc.constantFrom(...subscriptions),
    status: fc.constantFrom(...statuses),
  }),
  fc.record({ kind: fc.constant('delete' as const), id: fc.constantFrom(...ids) }),
  fc.constant({ kind: 'rollback' as const }),
);

const idsOf = (rows: Iterable<WebhookDelivery>) => [...rows].map((d) => d.id).sort();

describe('the memory adapter’s deliveries', () => {
  it('keep their in-flight and per-subscription indexes equal to a scan of every delivery, through writes and rollbacks', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const rows = new DeliveryRows();
        let undo: Undo[] = [];
        const record = (u: Undo) => undo.push(u);
        for (const s of steps) {
          if (s.kind === 'set') {
            const delivery = sampleDelivery('acc_1', s.subscriptionId, {
              id: s.id,
              status: s.status,
              leaseExpiresAt: s.status === 'sending' ? '2026-01-01T00:00:00.000Z' : null,
            });
            setWithUndo(rows, s.id, delivery, record);
          } else if (s.kind === 'delete') {
            deleteWithUndo(rows, s.id, record);
          } else {
            for (const u of undo.reverse()) u();
            undo = [];
          }
          const all = [...rows.values()];
          expect(idsOf(rows.open())).toEqual(idsOf(all.filter((d) => claimableAt(d) !== null)));
          for (const subscriptionId of subscriptions) {
            expect(idsOf(rows.ofSubscription(subscriptionId))).toEqual(
              idsOf(all.filter((d) => d.subscriptionId === subscriptionId)),
            );
          }
        }
      }),
    );
  });
});
