// outcome-tracker/client, the first-party API client, answered in process here (no server, no
// socket); against a server it is createClient({ baseUrl: 'https://tracker.example.com', token }).
import { createServer } from 'node:http';
import { createTracker, projects, tenancy } from 'outcome-tracker';
import { ApiError, createClient, verifyWebhook } from 'outcome-tracker/client';
import { memoryStorage } from 'outcome-tracker/memory';
import { nodeWebhookSender } from 'outcome-tracker/node';

const tracker = createTracker({
  storage: memoryStorage(),
  // Local webhook receivers are refused unless allowed: this one listens on 127.0.0.1.
  webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
});
const { token } = await tracker.storage.transaction((tx) =>
  tenancy.initWorkspace(
    { tx, ids: tracker.ids, now: tracker.clock.now() },
    { slug: 'acme', adminEmail: 'ada@example.com' },
  ),
);
const project = await tracker.run({ workspaceSlug: 'acme' }, (ctx) =>
  projects.create(ctx, { name: 'Apollo' }),
);

const client = createClient({ tracker, token });

// A create carries an Idempotency-Key, the same on every retry: a lost answer never makes two.
const issue = await client.issues.create({ projectId: project.id, title: 'Write the launch checklist' });
console.log(`created ${issue.key} etag=${issue.etag}`);

// Read, change, write with If-Match; on a 409 version_conflict it reads and applies again.
const labelled = await client.issues.modify(issue.key, (current) => ({
  labels: [...current.labels, 'launch'],
}));
console.log(`modified ${labelled.key} labels=${labelled.labels.join(',')} etag=${labelled.etag}`);

// Errors are typed from the problem+json answer.
try {
  await client.issues.transition(issue.id, 'open');
} catch (error) {
  if (!(error instanceof ApiError)) throw error;
  console.log(`${error.status} ${error.code} allowed=${error.allowed?.join(',')}`);
}

// A list is an async iterable that follows nextCursor; .page() is one page with its total.
for (const title of ['Book the venue', 'Order the banners', 'Print the badges']) {
  await client.issues.create({ projectId: project.id, title });
}
const keys = [];
for await (const each of client.issues.list({ projectId: project.id, limit: 2 })) keys.push(each.key);
const { total } = await client.issues.list({ limit: 2 }).page();
console.log(`listed ${keys.join(',')} total=${total}`);

// The live signal stream: reconnects with Last-Event-ID, never yields an event twice.
const seen = [];
for await (const event of client.signals.stream({ after: 0, types: ['issue.created', 'issue.updated'] })) {
  seen.push(event.type);
  if (seen.length === 3) break;
}
console.log(`signals ${seen.join(',')}`);

// A webhook receiver: verify the raw bytes before trusting them.
let secret;
let report;
const reported = new Promise((resolve) => {
  report = resolve;
});
const receiver = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    const event = await verifyWebhook(Buffer.concat(chunks), req.headers, secret);
    res.writeHead(204).end();
    report(`verified ${event.type}`);
  } catch (error) {
    res.writeHead(400).end();
    report(`refused: ${error.message}`);
  }
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const webhook = await client.webhooks.create({
  url: `http://127.0.0.1:${receiver.address().port}/hook`,
  eventTypes: ['issue.created'],
});
secret = webhook.secret;
const sent = await client.webhooks.test(webhook.id);
console.log(`${await reported} delivered=${sent.delivered}`);

receiver.close();
await tracker.close();
