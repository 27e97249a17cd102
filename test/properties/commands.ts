import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  allowedTransitions,
  type EntryFilters,
  type IssueSeverity,
  type IssueStatus,
  issueSeverities,
  issueStatuses,
  type Model,
  type ModelIssue,
  type ModelOutcome,
  type ModelTimeEntry,
  matchingEntries,
  nextShippedAt,
  type OutcomeStatus,
  outcomeInUse,
  outcomeStatuses,
} from './model.js';
import type { Answer, World } from './support.js';

/**
 * The commands of the model-based properties: each sends one request, checks the answer against
 * the model (status code and the fields the model tracks), then updates the model.
 */
type Command = fc.AsyncCommand<Model, World>;

/** Moves the clock one second on, so each command happens at its own instant; returns that instant. */
function tick(world: World): string {
  world.clock.advance(1000);
  return new Date(world.clock.now()).toISOString();
}

function expectProblem(res: Answer, status: number, error: string): void {
  expect({ status: res.status, error: res.json?.error }).toEqual({ status, error });
}

function expectStatus(res: Answer, status: number): void {
  expect({ status: res.status, body: res.status === status ? undefined : res.json }).toEqual({
    status,
    body: undefined,
  });
}

const pick = <T>(items: readonly T[], ref: number): T => items[ref % items.length] as T;
const create = (body: unknown) => ({ body, headers: { 'idempotency-key': randomUUID() } });
/** Whether a conditional request sends no If-Match, the current ETag, or the one before it. */
type Precondition = 'none' | 'fresh' | 'stale';
const ifMatch = (version: number, precondition: Precondition): Record<string, string> =>
  precondition === 'none' ? {} : { 'if-match': `"${precondition === 'stale' ? version - 1 : version}"` };

/**
 * Asserts the answer to a PATCH that its precondition or a deleted resource refuses (428 without
 * If-Match, 404 once deleted, 409 with the current ETag when stale) and returns true; otherwise
 * asserts 200 and returns false.
 */
function refusedPatch(res: Answer, precondition: Precondition, item: { version: number; deleted?: boolean }) {
  // The pipeline asks for a precondition before it looks the resource up.
  if (precondition === 'none') {
    expectProblem(res, 428, 'precondition_required');
    return true;
  }
  if (item.deleted) {
    expectProblem(res, 404, 'not_found');
    return true;
  }
  if (precondition === 'stale') {
    expectProblem(res, 409, 'version_conflict');
    expect(res.headers.etag).toBe(`"${item.version}"`);
    return true;
  }
  expectStatus(res, 200);
  return false;
}

const outcomeView = (o: ModelOutcome) => ({
  id: o.id,
  title: o.title,
  status: o.status,
  shippedAt: o.shippedAt,
  version: o.version,
});
const entryView = (e: ModelTimeEntry) => ({
  id: e.id,
  outcomeId: e.outcomeId,
  issueId: e.issueId,
  minutes: e.minutes,
  date: e.date,
  version: e.version,
});

class CreateOutcome implements Command {
  constructor(
    readonly title: string,
    readonly status: OutcomeStatus | null,
  ) {}
  check = () => true;
  async run(m: Model, w: World) {
    const now = tick(w);
    const body = {
      projectId: w.ws.projectId,
      title: this.title,
      ...(this.status ? { status: this.status } : {}),
    };
    const res = await w.call('POST', '/outcomes', create(body));
    expectStatus(res, 201);
    const status = this.status ?? 'planned';
    const outcome: ModelOutcome = {
      id: res.json.id,
      title: this.title,
      status,
      shippedAt: status === 'shipped' ? now : null,
      version: 1,
      deleted: false,
    };
    expect(res.json).toMatchObject(outcomeView(outcome));
    m.outcomes.push(outcome);
    m.signals.push({ type: 'outcome.created', resourceId: outcome.id });
    if (status === 'shipped') m.signals.push({ type: 'outcome.shipped', resourceId: outcome.id });
  }
  toString = () => `CreateOutcome(${this.title}, ${this.status})`;
}

class PatchOutcome implements Command {
  constructor(
    readonly ref: number,
    readonly patch: { title?: string; status?: OutcomeStatus },
    readonly precondition: Precondition,
  ) {}
  check = (m: Readonly<Model>) => m.outcomes.length > 0;
  async run(m: Model, w: World) {
    const now = tick(w);
    const outcome = pick(m.outcomes, this.ref);
    const res = await w.call('PATCH', `/outcomes/${outcome.id}`, {
      body: this.patch,
      headers: ifMatch(outcome.version, this.precondition),
    });
    if (refusedPatch(res, this.precondition, outcome)) return;
    const status = this.patch.status ?? outcome.status;
    const title = this.patch.title ?? outcome.title;
    if (status !== outcome.status || title !== outcome.title) {
      const wasShipped = outcome.status === 'shipped';
      outcome.shippedAt = nextShippedAt(outcome, status, now);
      outcome.status = status;
      outcome.title = title;
      outcome.version += 1;
      m.signals.push({ type: 'outcome.updated', resourceId: outcome.id });
      if (status === 'shipped' && !wasShipped)
        m.signals.push({ type: 'outcome.shipped', resourceId: outcome.id });
    }
    expect(res.json).toMatchObject(outcomeView(outcome));
    expect(res.headers.etag).toBe(`"${outcome.version}"`);
  }
  toString = () => `PatchOutcome(#${this.ref}, ${JSON.stringify(this.patch)}, If-Match ${this.precondition})`;
}

class DeleteOutcome implements Command {
  constructor(readonly ref: number) {}
  check = (m: Readonly<Model>) => m.outcomes.length > 0;
  async run(m: Model, w: World) {
    tick(w);
    const outcome = pick(m.outcomes, this.ref);
    const res = await w.call('DELETE', `/outcomes/${outcome.id}`);
    if (outcome.deleted) return expectProblem(res, 404, 'not_found');
    if (outcomeInUse(m, outcome.id)) return expectProblem(res, 409, 'resource_in_use');
    expectStatus(res, 204);
    outcome.deleted = true;
    m.signals.push({ type: 'outcome.deleted', resourceId: outcome.id });
    expectProblem(await w.call('GET', `/outcomes/${outcome.id}`), 404, 'not_found');
  }
  toString = () => `DeleteOutcome(#${this.ref})`;
}

class CreateIssue implements Command {
  constructor(readonly outcomeRef: number | null) {}
  check = () => true;
  async run(m: Model, w: World) {
    tick(w);
    const outcome =
      this.outcomeRef === null || m.outcomes.length === 0 ? null : pick(m.outcomes, this.outcomeRef);
    const body = {
      projectId: w.ws.projectId,
      title: 'Something is off',
      ...(outcome ? { outcomeId: outcome.id } : {}),
    };
    const res = await w.call('POST', '/issues', create(body));
    if (outcome?.deleted) return expectProblem(res, 422, 'invalid_reference');
    expectStatus(res, 201);
    const issue: ModelIssue = {
      id: res.json.id,
      outcomeId: outcome?.id ?? null,
      status: 'open',
      severity: 'medium',
      resolvedAt: null,
      version: 1,
    };
    expect(res.json).toMatchObject(issue);
    m.issues.push(issue);
    m.signals.push({ type: 'issue.created', resourceId: issue.id });
  }
  toString = () => `CreateIssue(outcome #${this.outcomeRef})`;
}

/** PATCH an issue: severity changes; a status in the body is ignored (seed: status only moves by transition). */
class PatchIssue implements Command {
  constructor(
    readonly ref: number,
    readonly patch: { severity?: IssueSeverity; status?: IssueStatus },
    readonly precondition: Precondition,
  ) {}
  check = (m: Readonly<Model>) => m.issues.length > 0;
  async run(m: Model, w: World) {
    tick(w);
    const issue = pick(m.issues, this.ref);
    const res = await w.call('PATCH', `/issues/${issue.id}`, {
      body: this.patch,
      headers: ifMatch(issue.version, this.precondition),
    });
    if (refusedPatch(res, this.precondition, issue)) return;
    if (this.patch.severity !== undefined && this.patch.severity !== issue.severity) {
      issue.severity = this.patch.severity;
      issue.version += 1;
      m.signals.push({ type: 'issue.updated', resourceId: issue.id });
    }
    expect(res.json).toMatchObject(issue);
  }
  toString = () => `PatchIssue(#${this.ref}, ${JSON.stringify(this.patch)}, If-Match ${this.precondition})`;
}

/**
 * A transition, with an optional If-Match (a stale one → 409) and an optional Idempotency-Key;
 * with a key the same request is sent twice and the second answer replays the first.
 */
class TransitionIssue implements Command {
  constructor(
    readonly ref: number,
    readonly to: IssueStatus,
    readonly precondition: 'none' | 'fresh' | 'stale',
    readonly twiceWithKey: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.issues.length > 0;
  async run(m: Model, w: World) {
    const now = tick(w);
    const issue = pick(m.issues, this.ref);
    const headers: Record<string, string> = {
      ...ifMatch(issue.version, this.precondition),
      ...(this.twiceWithKey ? { 'idempotency-key': randomUUID() } : {}),
    };
    const send = () => w.call('POST', `/issues/${issue.id}/transition`, { body: { to: this.to }, headers });
    const res = await send();
    const again = this.twiceWithKey ? await send() : null;
    if (this.precondition === 'stale') {
      expectProblem(res, 409, 'version_conflict');
      if (again) expectProblem(again, 409, 'version_conflict');
      return;
    }
    if (!allowedTransitions[issue.status].includes(this.to)) {
      expectProblem(res, 422, 'invalid_transition');
      expect(res.json).toMatchObject({
        from: issue.status,
        to: this.to,
        allowed: allowedTransitions[issue.status],
      });
      if (again) expect({ status: again.status, body: again.json }).toEqual({ status: 422, body: res.json });
      return;
    }
    expectStatus(res, 200);
    issue.status = this.to;
    issue.resolvedAt = this.to === 'resolved' ? now : null;
    issue.version += 1;
    expect(res.json).toMatchObject(issue);
    m.signals.push({ type: 'issue.status_changed', resourceId: issue.id });
    if (again) {
      expectStatus(again, 200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(res.text);
    }
  }
  toString = () =>
    `TransitionIssue(#${this.ref} → ${this.to}, If-Match ${this.precondition}, twiceWithKey=${this.twiceWithKey})`;
}

/** A day of November 2026, so that date filters select real subsets. */
const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}`;

class LogTime implements Command {
  constructor(
    readonly outcomeRef: number,
    readonly issueRef: number | null,
    readonly minutes: number,
    readonly day: number,
  ) {}
  check = (m: Readonly<Model>) => m.outcomes.length > 0;
  async run(m: Model, w: World) {
    tick(w);
    const outcome = pick(m.outcomes, this.outcomeRef);
    const issue = this.issueRef === null || m.issues.length === 0 ? null : pick(m.issues, this.issueRef);
    const body = {
      outcomeId: outcome.id,
      minutes: this.minutes,
      date: day(this.day),
      ...(issue ? { issueId: issue.id } : {}),
    };
    const res = await w.call('POST', '/time-entries', create(body));
    if (outcome.deleted) return expectProblem(res, 422, 'invalid_reference');
    expectStatus(res, 201);
    const entry: ModelTimeEntry = {
      id: res.json.id,
      outcomeId: outcome.id,
      issueId: issue?.id ?? null,
      minutes: this.minutes,
      date: day(this.day),
      version: 1,
      deleted: false,
    };
    expect(res.json).toMatchObject(entryView(entry));
    m.entries.push(entry);
    m.signals.push({ type: 'time_entry.created', resourceId: entry.id });
  }
  toString = () =>
    `LogTime(outcome #${this.outcomeRef}, issue #${this.issueRef}, ${this.minutes} min, ${day(this.day)})`;
}

class PatchTimeEntry implements Command {
  constructor(
    readonly ref: number,
    readonly patch: { minutes?: number; date?: number },
    readonly precondition: Precondition,
  ) {}
  check = (m: Readonly<Model>) => m.entries.length > 0;
  async run(m: Model, w: World) {
    tick(w);
    const entry = pick(m.entries, this.ref);
    const body = {
      ...(this.patch.minutes !== undefined ? { minutes: this.patch.minutes } : {}),
      ...(this.patch.date !== undefined ? { date: day(this.patch.date) } : {}),
    };
    const res = await w.call('PATCH', `/time-entries/${entry.id}`, {
      body,
      headers: ifMatch(entry.version, this.precondition),
    });
    if (refusedPatch(res, this.precondition, entry)) return;
    const minutes = body.minutes ?? entry.minutes;
    const date = body.date ?? entry.date;
    if (minutes !== entry.minutes || date !== entry.date) {
      Object.assign(entry, { minutes, date, version: entry.version + 1 });
      m.signals.push({ type: 'time_entry.updated', resourceId: entry.id });
    }
    expect(res.json).toMatchObject(entryView(entry));
  }
  toString = () =>
    `PatchTimeEntry(#${this.ref}, ${JSON.stringify(this.patch)}, If-Match ${this.precondition})`;
}

class DeleteTimeEntry implements Command {
  constructor(
    readonly ref: number,
    readonly precondition: Precondition,
  ) {}
  check = (m: Readonly<Model>) => m.entries.length > 0;
  async run(m: Model, w: World) {
    tick(w);
    const entry = pick(m.entries, this.ref);
    const res = await w.call('DELETE', `/time-entries/${entry.id}`, {
      headers: ifMatch(entry.version, this.precondition),
    });
    if (entry.deleted) return expectProblem(res, 404, 'not_found');
    if (this.precondition === 'stale') return expectProblem(res, 409, 'version_conflict');
    expectStatus(res, 204);
    entry.deleted = true;
    m.signals.push({ type: 'time_entry.deleted', resourceId: entry.id });
  }
  toString = () => `DeleteTimeEntry(#${this.ref}, If-Match ${this.precondition})`;
}

class ListTimeEntries implements Command {
  constructor(
    readonly outcomeRef: number | null,
    readonly issueRef: number | null,
    readonly days: [number, number] | null,
    readonly bound: 'from' | 'to' | 'both',
  ) {}
  check = () => true;
  async run(m: Model, w: World) {
    const filters: EntryFilters = {};
    if (this.outcomeRef !== null && m.outcomes.length > 0)
      filters.outcomeId = pick(m.outcomes, this.outcomeRef).id;
    if (this.issueRef !== null && m.issues.length > 0) filters.issueId = pick(m.issues, this.issueRef).id;
    if (this.days) {
      const [a, b] = this.days[0] <= this.days[1] ? this.days : [this.days[1], this.days[0]];
      if (this.bound !== 'to') filters.from = day(a);
      if (this.bound !== 'from') filters.to = day(b);
    }
    const res = await w.call('GET', '/time-entries', { query: { ...filters, limit: '200' } });
    expectStatus(res, 200);
    const expected = matchingEntries(m, filters);
    expect(res.json.total).toBe(expected.length);
    expect(res.json.totalMinutes).toBe(expected.reduce((sum, e) => sum + e.minutes, 0));
    const ids = res.json.data.map((e: { id: string }) => e.id).sort();
    expect(ids).toEqual(expected.map((e) => e.id).sort());
  }
  toString = () =>
    `ListTimeEntries(outcome #${this.outcomeRef}, issue #${this.issueRef}, ${this.days}, ${this.bound})`;
}

type Kind = 'outcomes' | 'issues' | 'time-entries';

/** The model's items of one kind, each with the fields a GET must show. */
function itemsOf(
  m: Readonly<Model>,
  kind: Kind,
): { id: string; version: number; deleted: boolean; view: object }[] {
  if (kind === 'outcomes') return m.outcomes.map((o) => ({ ...o, view: outcomeView(o) }));
  if (kind === 'issues') return m.issues.map((i) => ({ ...i, deleted: false, view: i }));
  return m.entries.map((e) => ({ ...e, view: entryView(e) }));
}

/** GET by id: the model's fields and ETag; If-None-Match with the current ETag → 304, a stale one → 200. */
class GetItem implements Command {
  constructor(
    readonly kind: Kind,
    readonly ref: number,
    readonly noneMatch: 'none' | 'fresh' | 'stale',
  ) {}
  check = (m: Readonly<Model>) => itemsOf(m, this.kind).length > 0;
  async run(m: Model, w: World) {
    const item = pick(itemsOf(m, this.kind), this.ref);
    const headers: Record<string, string> =
      this.noneMatch === 'none'
        ? {}
        : { 'if-none-match': `"${item.version - (this.noneMatch === 'stale' ? 1 : 0)}"` };
    const res = await w.call('GET', `/${this.kind}/${item.id}`, { headers });
    if (item.deleted) return expectProblem(res, 404, 'not_found');
    if (this.noneMatch === 'fresh') {
      expectStatus(res, 304);
      expect(res.text).toBe('');
    } else {
      expectStatus(res, 200);
      expect(res.json).toMatchObject(item.view);
    }
    expect(res.headers.etag).toBe(`"${item.version}"`);
  }
  toString = () => `GetItem(${this.kind} #${this.ref}, If-None-Match ${this.noneMatch})`;
}

const ref = fc.nat({ max: 20 });
const optionalRef = fc.option(ref, { nil: null });
const titles = fc.constantFrom('Faster checkout', 'Self-serve onboarding');
const minutes = fc.integer({ min: 1, max: 1440 });
const dayOfMonth = fc.integer({ min: 1, max: 6 });
/** Mostly the current ETag, so that most writes go through. */
const precondition = fc.constantFrom<Precondition>('fresh', 'fresh', 'stale', 'none');

/** Every command, with arguments drawn from small pools so that collisions and no-ops happen. */
export const commandArbitraries: fc.Arbitrary<Command>[] = [
  fc
    .tuple(titles, fc.option(fc.constantFrom(...outcomeStatuses), { nil: null }))
    .map(([t, s]) => new CreateOutcome(t, s)),
  fc
    .tuple(
      ref,
      fc.record({ title: titles, status: fc.constantFrom(...outcomeStatuses) }, { requiredKeys: [] }),
      precondition,
    )
    .map(([r, p, s]) => new PatchOutcome(r, p, s)),
  ref.map((r) => new DeleteOutcome(r)),
  optionalRef.map((r) => new CreateIssue(r)),
  fc
    .tuple(ref, fc.constantFrom(...issueStatuses), precondition, fc.boolean())
    .map(([r, to, p, twice]) => new TransitionIssue(r, to, p, twice)),
  fc
    .tuple(
      ref,
      fc.record(
        { severity: fc.constantFrom(...issueSeverities), status: fc.constantFrom(...issueStatuses) },
        { requiredKeys: [] },
      ),
      precondition,
    )
    .map(([r, p, s]) => new PatchIssue(r, p, s)),
  fc.tuple(ref, optionalRef, minutes, dayOfMonth).map(([o, i, n, d]) => new LogTime(o, i, n, d)),
  fc
    .tuple(ref, fc.record({ minutes, date: dayOfMonth }, { requiredKeys: [] }), precondition)
    .map(([r, p, s]) => new PatchTimeEntry(r, p, s)),
  fc.tuple(ref, precondition).map(([r, p]) => new DeleteTimeEntry(r, p)),
  fc
    .tuple(
      optionalRef,
      optionalRef,
      fc.option(fc.tuple(dayOfMonth, dayOfMonth), { nil: null }),
      fc.constantFrom('from' as const, 'to' as const, 'both' as const),
    )
    .map(([o, i, d, b]) => new ListTimeEntries(o, i, d, b)),
  fc
    .tuple(
      fc.constantFrom<Kind>('outcomes', 'issues', 'time-entries'),
      ref,
      fc.constantFrom('none' as const, 'fresh' as const, 'stale' as const),
    )
    .map(([k, r, n]) => new GetItem(k, r, n)),
];
