// The README's Next.js recipe, run by test/ecosystem/recipes.test.ts once this folder is installed (npm install here) against the real framework.
// --- recipe ---
// app/tracker/[...path]/route.js
import { createTracker } from 'outcome-tracker';
import { sqliteStorage } from 'outcome-tracker/sqlite';

// One tracker per server process: a dev server may evaluate this module more than once.
globalThis.tracker ??= createTracker({
  storage: sqliteStorage({ filename: process.env.TRACKER_DB ?? 'tracker.db' }),
  basePath: '/tracker/api/v1',
});
// Next.js compresses answers itself and drops a handler's Content-Encoding: ask the tracker for plain bytes.
const handle = (request) => {
  const headers = new Headers(request.headers);
  headers.delete('accept-encoding');
  return globalThis.tracker.fetch(new Request(request, { headers }));
};

export {
  handle as DELETE,
  handle as GET,
  handle as HEAD,
  handle as OPTIONS,
  handle as PATCH,
  handle as POST,
};
// --- end ---
