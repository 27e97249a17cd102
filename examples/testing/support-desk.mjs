// The app under test in these examples: a support desk that files customer bug reports in
// outcome-tracker through the client, and pages someone when a webhook says an issue is critical.
import { createClient, verifyWebhook } from 'outcome-tracker/client';

/** The desk talks to the tracker at `baseUrl` with `token`; `fetch` is injectable for tests. */
export function supportDesk({ baseUrl, token, fetch, webhookSecret, now = Date.now }) {
  const tracker = createClient({ baseUrl, token, fetch, maxRetries: 0 });
  const pages = [];
  return {
    pages,
    /** Files a customer's report; enterprise customers' reports are high severity. */
    async report({ projectId, title, plan }) {
      return tracker.issues.create({
        projectId,
        title,
        labels: ['customer'],
        severity: plan === 'enterprise' ? 'high' : 'medium',
      });
    },
    /** The webhook endpoint: verifies the delivery, pages on a critical issue; answers a status. */
    async receive({ body, headers }) {
      let event;
      try {
        event = await verifyWebhook(body, headers, webhookSecret, { now });
      } catch {
        return 400;
      }
      const issue = event.data.object;
      if (event.type === 'issue.updated' && issue.severity === 'critical') pages.push(issue.key);
      return 204;
    },
  };
}
