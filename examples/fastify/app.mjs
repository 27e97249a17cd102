// The Fastify recipe (docs/embedding.md), run against the real framework by
// test/ecosystem/recipes.test.ts once this folder is installed (npm install here).
import Fastify from 'fastify';
import { nodeHandler } from 'outcome-tracker/node';

/** The app: its own route, and the tracker under /tracker. */
export async function fastifyApp(tracker) {
  // --- recipe ---
  const app = Fastify();
  app.get('/hello', async () => 'the app itself');
  const handler = nodeHandler(tracker);
  await app.register(async (scope) => {
    // The tracker reads (and limits) the body itself: keep Fastify's parsers off it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all('/tracker/*', (request, reply) => {
      reply.hijack();
      handler(request.raw, reply.raw);
    });
  });
  // --- end ---
  return app;
}
