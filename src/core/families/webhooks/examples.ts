/** The test event's delivery once delivered, as the deliveries list and its detail show it. */
const deliveredTest = {
  id: 'dlv_4ZdRKJ8nfcKNldkjhU4l',
  subscriptionId: 'wh_dsrCN8s4vsXTHRjzbO54',
  eventId: 'a355aa64-b8a9-4084-ba9f-d26a75229f64',
  eventType: 'webhook.test',
  status: 'delivered',
  attempts: 1,
  nextAttemptAt: null,
  lastAttemptAt: '2026-11-22T10:34:34.000Z',
  lastResponseStatus: 200,
  lastError: null,
  lastDurationMs: 182,
  deliveredAt: '2026-11-22T10:34:34.000Z',
  createdAt: '2026-11-22T10:34:34.000Z',
  updatedAt: '2026-11-22T10:34:34.000Z',
};

/** The subscription every answer below shows, at its first version (its secret shown only on creation). */
const webhook = {
  id: 'wh_dsrCN8s4vsXTHRjzbO54',
  accountId: 'acct_dJq0F1wXBt5njHqWBanl',
  url: 'https://hooks.example.com/tracker',
  eventTypes: ['issue.created', 'issue.status_changed'],
  description: null,
  status: 'active',
  disabledReason: null,
  signatureScheme: 'stripe',
  createdAt: '2026-11-22T10:29:29.000Z',
  updatedAt: '2026-11-22T10:29:29.000Z',
  version: 1,
};

/** Requests and answers of the webhooks routes, shown in the API reference (a test validates each against its schema). */
export const webhookExamples = {
  create: {
    url: 'https://hooks.example.com/tracker',
    eventTypes: ['issue.created', 'issue.status_changed'],
  },
  created: { ...webhook, secret: 'whsec_hq4qEQOtpTFOxqsuO3xW6aVX8EqEOuuZNK1Bd5O4cSRB' },
  item: webhook,
  update: {
    description: 'Launch bot',
  },
  updated: { ...webhook, description: 'Launch bot', updatedAt: '2026-11-22T10:32:32.000Z', version: 2 },
  rotated: {
    ...webhook,
    description: 'Launch bot',
    updatedAt: '2026-11-22T10:33:33.000Z',
    version: 3,
    secret: 'whsec_BclG8Q3kiJOy9s2zbqYaSHVqnSXTb72PlGZ2u6VQfyvA',
    previousSecretExpiresAt: '2026-11-23T10:33:33.000Z',
  },
  testResult: {
    eventId: 'a355aa64-b8a9-4084-ba9f-d26a75229f64',
    delivered: true,
    responseStatus: 200,
    durationMs: 182,
    error: null,
  },
  delivery: {
    id: 'dlv_4ZdRKJ8nfcKNldkjhU4l',
    subscriptionId: 'wh_dsrCN8s4vsXTHRjzbO54',
    eventId: 'a355aa64-b8a9-4084-ba9f-d26a75229f64',
    eventType: 'webhook.test',
    status: 'pending',
    attempts: 1,
    nextAttemptAt: '2026-11-22T10:37:37.000Z',
    lastAttemptAt: '2026-11-22T10:34:34.000Z',
    lastResponseStatus: 200,
    lastError: null,
    lastDurationMs: 182,
    deliveredAt: null,
    createdAt: '2026-11-22T10:34:34.000Z',
    updatedAt: '2026-11-22T10:37:37.000Z',
  },
  deliveryDetail: {
    ...deliveredTest,
    payload:
      '{"id":"a355aa64-b8a9-4084-ba9f-d26a75229f64","type":"webhook.test","occurredAt":"2026-11-22T10:34:34.000Z","data":{"object":{"webhookId":"wh_dsrCN8s4vsXTHRjzbO54","message":"This is a test delivery from outcome-tracker."}}}',
    attemptLog: [
      {
        number: 1,
        startedAt: '2026-11-22T10:34:34.000Z',
        durationMs: 182,
        succeeded: true,
        request: {
          url: 'https://hooks.example.com/tracker',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'outcome-tracker/0.1.0',
            'X-Service-Event-Id': 'a355aa64-b8a9-4084-ba9f-d26a75229f64',
            'X-Service-Signature':
              't=1795343674,v1=b9073bc4fbd52ae0786aed46181ecb53593bf2ccc4aa395d5f8e8cedbf6892b6,v1=1b6c38961204515a8f6beb0a083b7132393e339ffa86e1d49b91ef3c091df844',
          },
          body: '{"id":"a355aa64-b8a9-4084-ba9f-d26a75229f64","type":"webhook.test","occurredAt":"2026-11-22T10:34:34.000Z","data":{"object":{"webhookId":"wh_dsrCN8s4vsXTHRjzbO54","message":"This is a test delivery from outcome-tracker."}}}',
        },
        response: {
          status: 200,
          headers: {},
          body: '',
          bodyTruncated: false,
        },
        error: null,
      },
    ],
  },
  deliveryPage: {
    data: [deliveredTest],
    nextCursor: null,
    total: 1,
  },
  stats: {
    since: '2026-11-22T08:00:00.000Z',
    hours: [
      {
        hour: '2026-11-22T08:00:00.000Z',
        succeeded: 0,
        failed: 0,
      },
      {
        hour: '2026-11-22T09:00:00.000Z',
        succeeded: 0,
        failed: 0,
      },
      {
        hour: '2026-11-22T10:00:00.000Z',
        succeeded: 1,
        failed: 0,
      },
    ],
  },
};
