import { defineFamily } from '../family.js';
import { signalRoutes } from './routes.js';
import { signalEventSchema, signalPageSchema } from './schema.js';

export const signalsFamily = defineFamily({
  name: 'signals',
  routes: signalRoutes,
  about:
    "The account's event log: every change made through the API, as a list or a live server-sent event stream.",
  schemas: { responses: { SignalEvent: signalEventSchema, SignalPage: signalPageSchema } },
});
