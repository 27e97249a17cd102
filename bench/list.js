// Latency of list pages (with their exact `total`) on a large seeded database: p50 over
// sequential requests on one keep-alive connection, measured by the client.
import { median } from './support.js';

async function timed(url, headers) {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers });
  const page = await response.json();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200 || typeof page.total !== 'number') {
    throw new Error(`${url} answered ${response.status}: ${JSON.stringify(page).slice(0, 200)}`);
  }
  return { ms, page };
}

/** p50 in ms of each list query; "later page" follows nextCursor 20 pages deep first. */
export async function listLatencies(server, info, samples = 60) {
  const headers = { authorization: `Bearer ${info.token}` };
  const base = `${server.url}/api/v1/issues?limit=50`;
  let cursorUrl = base;
  for (let i = 0; i < 20; i++) {
    const { page } = await timed(cursorUrl, headers);
    cursorUrl = `${base}&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
  const queries = {
    'first page': base,
    'status=open': `${base}&status=open`,
    'projectId (90%)': `${base}&projectId=${info.projectId}`,
    'projectId (10%)': `${base}&projectId=${info.smallProjectId}`,
    'page 21': cursorUrl,
    'status+severity': `${base}&status=open&severity=high`,
    'projectId (90%)+status': `${base}&projectId=${info.projectId}&status=open`,
    'projectId (90%)+status+severity': `${base}&projectId=${info.projectId}&status=open&severity=high`,
    'updatedSince, none match': `${base}&updatedSince=2099-01-01T00:00:00.000Z`,
    'sort=-updatedAt': `${base}&sort=-updatedAt`,
    'status=open,in_progress (40%)': `${base}&status=open,in_progress`,
    'labels=x (10%)': `${base}&labels=x`,
    'labels=rare (0.1%)': `${base}&labels=rare`,
    // Issue 53's slow cases: a label with a filter none of its issues match (x is on resolved
    // issues only), a negated label with a filter, due ranges, a label no issue carries, a sort
    // by title with a filter.
    'labels=x&status=open (none)': `${base}&labels=x&status=open`,
    'labels=x&status=resolved (10%)': `${base}&labels=x&status=resolved`,
    'query=-label:x status:blocked': `${base}&query=${encodeURIComponent('-label:x status:blocked')}`,
    'labelsNone=x&status=open': `${base}&labelsNone=x&status=open`,
    'dueBefore, none due': `${base}&dueBefore=2020-01-01`,
    'dueBefore=2026-02-01 (0.1%)': `${base}&dueBefore=2026-02-01`,
    'labels=nosuch (no issue)': `${base}&labels=nosuch`,
    'labelsNone=nosuch&status=open': `${base}&labelsNone=nosuch&status=open`,
    'sort=-title&status=open': `${base}&sort=-title&status=open`,
    'sort=title&severity=high': `${base}&sort=title&severity=high`,
    // Sorted by a ranked field whose first ranks hold no match: the filter on the field itself,
    // a project whose issues are all open, a label on resolved issues only.
    'sort=-status&status=open': `${base}&sort=-status&status=open`,
    'sort=-status&projectId (10%)': `${base}&sort=-status&projectId=${info.smallProjectId}`,
    'sort=-severity&severity=low': `${base}&sort=-severity&severity=low`,
    'sort=status&labels=x': `${base}&sort=status&labels=x`,
    // Sorted by due day, the 20,000 due issues first, none of them open nor in the small project.
    'sort=dueOn&status=open': `${base}&sort=dueOn&status=open`,
    'sort=dueOn&projectId (10%)': `${base}&sort=dueOn&projectId=${info.smallProjectId}`,
    'sort=-dueOn&projectId (10%)': `${base}&sort=-dueOn&projectId=${info.smallProjectId}`,
    // The workspace's labels with their issues, archived ones too.
    'GET /labels': `${server.url}/api/v1/labels?limit=50`,
  };
  const result = {};
  for (const [name, url] of Object.entries(queries)) {
    const times = [];
    for (let i = 0; i < samples + 5; i++) {
      const { ms, page } = await timed(url, headers);
      if (i >= 5) times.push(ms);
      result[name] = { total: page.total };
    }
    result[name].p50 = median(times);
  }
  return result;
}
