// The Express recipe (docs/embedding.md), run against the real framework by
// test/ecosystem/recipes.test.ts once this folder is installed (npm install here).
import express from 'express';
import { nodeHandler } from 'outcome-tracker/node';

/** The app: its own route, and the tracker under /tracker. */
export function expressApp(tracker) {
  // --- recipe ---
  const app = express();
  app.use(express.json()); // the app's own parser: the tracker restores the JSON it parsed
  app.get('/hello', (_req, res) => {
    res.send('the app itself');
  });
  app.use('/tracker', nodeHandler(tracker));
  // --- end ---
  return app;
}

/** An app whose parser reads a body into something the tracker cannot restore (nested form fields). */
export function urlencodedApp(tracker) {
  const app = express();
  app.use(express.urlencoded({ extended: true }));
  app.use('/tracker', nodeHandler(tracker));
  return app;
}
