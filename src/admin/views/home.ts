import type { Reply, Workspace } from '../../core/extension-kit.js';
import { html } from '../html.js';
import { pageReply, type SignedIn, sectionPath } from '../layout.js';
import { outcomesPath } from './outcomes.js';

export interface HomeView {
  workspace: Workspace;
  signedIn: SignedIn;
  counts: { liveTokens: number; members: number; admins: number; webhooks: number; disabledWebhooks: number };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The workspace's settings home: one card per section, with what it holds now. */
export function homePage(view: HomeView): Reply {
  const { workspace, counts } = view;
  const body = html`
<p>Manage who can use the <strong>${workspace.slug}</strong> workspace and how other systems connect to it.</p>
<ul class="cards">
  <li>
    <h2><a href="${outcomesPath(workspace)}">Outcomes</a></h2>
    <p>Each outcome's progress, burn-up, time logged, blockers and latest decisions, for every member.</p>
  </li>
  <li>
    <h2><a href="${sectionPath(workspace, 'tokens')}">API tokens</a></h2>
    <p>${plural(counts.liveTokens, 'active token')}. Create tokens for scripts and integrations, set them to
    expire, revoke them.</p>
  </li>
  <li>
    <h2><a href="${sectionPath(workspace, 'members')}">Members</a></h2>
    <p>${plural(counts.members, 'member')}, ${plural(counts.admins, 'admin')}. Add people, change their role,
    remove them.</p>
  </li>
  <li>
    <h2><a href="${sectionPath(workspace, 'webhooks')}">Webhooks</a></h2>
    <p>${plural(counts.webhooks, 'subscription')}${
      counts.disabledWebhooks ? html`, <strong>${counts.disabledWebhooks} disabled</strong>` : null
    }. Send events to other systems and inspect every delivery.</p>
  </li>
</ul>`;
  return pageReply({
    title: `Settings · ${workspace.slug}`,
    body,
    signedIn: view.signedIn,
    nav: { workspace, current: 'home' },
  });
}
