import type { Reply } from '../../core/extension-kit.js';
import { issueSeverities, issueStatuses, type Workspace } from '../../core/extension-kit.js';
import { type Html, html } from '../html.js';
import { pageReply, type SignedIn } from '../layout.js';
import type { OutcomeDetail, OutcomeRow } from '../outcome-data.js';
import { when } from './common.js';
import { burnUpChart, countBars, minutesChart } from './outcome-charts.js';

/** The path of a workspace's outcomes page, and of one outcome's. */
export const outcomesPath = (workspace: Pick<Workspace, 'slug'>) => `/${workspace.slug}/outcomes`;
export const outcomePath = (workspace: Pick<Workspace, 'slug'>, id: string) =>
  `${outcomesPath(workspace)}/${id}`;

const percent = (part: number, all: number) => (all === 0 ? 0 : Math.round((part / all) * 100));

/** Resolved of all issues, as a native progress bar with its words beside it. */
const progress = (resolved: number, all: number, label: string) => html`<span class="progress">
  <progress value="${resolved}" max="${Math.max(all, 1)}" aria-label="${label}">${percent(resolved, all)}%</progress>
  <span>${resolved} of ${all} resolved (${percent(resolved, all)}%)</span></span>`;

const dueDay = (day: string | null) =>
  day ? html`<time datetime="${day}">${day}</time>` : html`<span class="muted">none</span>`;

export interface OutcomesView {
  workspace: Workspace;
  signedIn: SignedIn;
  /** Whether the viewer administers the workspace (the settings link). */
  admin: boolean;
  rows: OutcomeRow[];
  total: number;
  /** The next page's link, or null on the last. */
  nextHref: string | null;
}

const crumbs = (
  workspace: Workspace,
  admin: boolean,
  here?: Html,
) => html`<nav aria-label="Breadcrumb" class="crumbs">
  <a href="${outcomesPath(workspace)}">Outcomes</a>${here ? html` / ${here}` : null}${
    admin ? html` · <a href="/${workspace.slug}/admin">Settings</a>` : null
  }</nav>`;

/** Every outcome of the workspace with its progress, due day and owner. */
export function outcomesPage(view: OutcomesView): Reply {
  const { workspace } = view;
  const body = html`${crumbs(workspace, view.admin)}
<p>${view.total} ${view.total === 1 ? 'outcome' : 'outcomes'} in <strong>${workspace.slug}</strong>, newest first. Progress is the
resolved share of each outcome's issues (archived ones left out).</p>
${
  view.rows.length === 0
    ? html`<p class="notice">No outcomes yet. Create them through the API (its <code>POST /outcomes</code> operation).</p>`
    : html`<table class="outcomes">
  <thead><tr><th scope="col">Outcome</th><th scope="col">Progress</th><th scope="col">Due</th><th scope="col">Owner</th><th scope="col">Status</th></tr></thead>
  <tbody>${view.rows.map(
    ({ outcome, issues, resolved, ownerEmail }) => html`<tr>
    <td data-label="Outcome"><a href="${outcomePath(workspace, outcome.id)}">${outcome.title}</a></td>
    <td data-label="Progress">${progress(resolved, issues, `${outcome.title}: ${resolved} of ${issues} issues resolved`)}</td>
    <td data-label="Due">${dueDay(outcome.dueDate)}</td>
    <td data-label="Owner" class="email">${ownerEmail ?? html`<span class="muted">none</span>`}</td>
    <td data-label="Status">${outcome.status.replace('_', ' ')}</td>
  </tr>`,
  )}</tbody>
</table>`
}
${view.nextHref ? html`<p><a href="${view.nextHref}">Older outcomes</a></p>` : null}`;
  return pageReply({ title: `Outcomes · ${workspace.slug}`, body, signedIn: view.signedIn });
}

export interface OutcomeView {
  workspace: Workspace;
  signedIn: SignedIn;
  admin: boolean;
  detail: OutcomeDetail;
}

/** One outcome at a glance: its burn-up, time, issues by status and severity, blockers and decisions. */
export function outcomePage(view: OutcomeView): Reply {
  const { workspace, detail } = view;
  const { outcome, summary } = detail;
  const { issues, openBlockers, time } = summary;
  const body = html`${crumbs(workspace, view.admin, html`<span aria-current="page">${outcome.title}</span>`)}
<dl class="details">
  <dt>Status</dt><dd>${outcome.status.replace('_', ' ')}</dd>
  <dt>Progress</dt><dd>${progress(issues.byStatus.resolved, issues.total, `${issues.byStatus.resolved} of ${issues.total} issues resolved`)}</dd>
  <dt>Due</dt><dd>${dueDay(outcome.dueDate)}</dd>
  <dt>Owner</dt><dd>${detail.ownerEmail ?? html`<span class="muted">none</span>`}</dd>
  <dt>Began</dt><dd>${when(outcome.createdAt)}</dd>
  <dt>Last activity</dt><dd>${when(summary.lastActivityAt)}</dd>
</dl>
${outcome.description ? html`<p>${outcome.description}</p>` : null}

<h2 id="burn-up">Burn-up</h2>
${burnUpChart(detail.burnUp, 'burn-up-chart')}

<h2 id="time">Time logged</h2>
<p>${time.totalMinutes} minutes in all.</p>
${minutesChart(time.byWeek, 'minutes-chart')}

<h2 id="issues">Issues by status and severity</h2>
${countBars(
  { id: 'status-chart', title: 'Issues by status', label: 'Status', unit: 'issues' },
  issueStatuses.map((s) => [s.replace('_', ' '), issues.byStatus[s]] as const),
)}
${countBars(
  { id: 'severity-chart', title: 'Issues by severity', label: 'Severity', unit: 'issues' },
  issueSeverities.map((s) => [s, issues.bySeverity[s]] as const),
)}

<h2 id="blockers">Open blockers</h2>
<p>${openBlockers.total} ${openBlockers.total === 1 ? 'issue is' : 'issues are'} blocked.</p>
${
  openBlockers.issues.length > 0
    ? html`<ul class="blocked">${openBlockers.issues.map((i) => html`<li><strong>${i.key}</strong> ${i.title}</li>`)}</ul>`
    : null
}
${
  detail.blocks.length > 0
    ? html`<h3>Open issues blocking them</h3><ul class="blocks">${detail.blocks.map(
        (b) =>
          html`<li><strong>${b.blocker.key}</strong> ${b.blocker.title} <span class="muted">(${b.blocker.status.replace('_', ' ')})</span> blocks <strong>${b.blocked.key}</strong> ${b.blocked.title}</li>`,
      )}</ul>`
    : html`<p class="muted">No open issue blocks another of this outcome's issues.</p>`
}

<h2 id="decisions">Latest decisions</h2>
<p>${summary.decisions.total} ${summary.decisions.total === 1 ? 'decision' : 'decisions'} in all.</p>
${
  detail.latestDecisions.length > 0
    ? html`<ul class="decisions">${detail.latestDecisions.map(
        (d) =>
          html`<li><strong>${d.title}</strong> <span class="muted">(${d.status}${d.decidedAt ? html`, ${when(d.decidedAt)}` : null})</span><br>${d.rationale}</li>`,
      )}</ul>`
    : html`<p class="muted">No decisions recorded.</p>`
}`;
  return pageReply({ title: outcome.title, body, signedIn: view.signedIn });
}
