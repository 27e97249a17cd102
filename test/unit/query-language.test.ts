import { describe, expect, it } from 'vitest';
import {
  filtersOfQuery,
  parseQuery,
  type QueryContext,
  QuerySyntaxError,
} from '../../src/core/query/index.js';

const context: QueryContext = {
  me: 'usr_me',
  today: '2026-11-20',
  projectIdOf: (key) => (key === 'APO' ? 'prj_apollo' : undefined),
};

/** The term and offset a query is refused at, or null when it is taken. */
function refusal(resource: 'issues' | 'outcomes' | 'decisions', query: string) {
  try {
    filtersOfQuery(resource, query, context);
    return null;
  } catch (error) {
    if (!(error instanceof QuerySyntaxError)) throw error;
    return { term: error.term, offset: error.offset };
  }
}

describe('the query grammar', () => {
  it('reads key:value terms, negations, quoted values and free text, with where each begins', () => {
    expect(parseQuery('status:open  -label:wontfix label:"needs review" "checkout fails" slow')).toEqual([
      { key: 'status', value: 'open', negated: false, raw: 'status:open', offset: 0 },
      { key: 'label', value: 'wontfix', negated: true, raw: '-label:wontfix', offset: 13 },
      { key: 'label', value: 'needs review', negated: false, raw: 'label:"needs review"', offset: 28 },
      { key: undefined, value: 'checkout fails', negated: false, raw: '"checkout fails"', offset: 49 },
      { key: undefined, value: 'slow', negated: false, raw: 'slow', offset: 66 },
    ]);
  });

  it('takes an empty query as no terms, and keys in any case', () => {
    expect(parseQuery('   ')).toEqual([]);
    expect(parseQuery('Status:open')[0]?.key).toBe('status');
  });

  it.each([
    ['status:open "checkout', '"checkout', 12],
    ['label:"open', 'label:"open', 0],
    ['status:', 'status:', 0],
    ['a :open', ':', 2],
    ['-word', '-word', 0],
    ['label:"a"b', 'label:"a"b', 0],
    ['ab"c', 'ab"', 0],
  ])('refuses %j at the term %j (offset %i)', (query, term, offset) => {
    expect(refusal('issues', query)).toEqual({ term, offset });
  });
});

describe('a query as list filters', () => {
  it('makes the parameters the list takes: lists, negations, labels, people and projects', () => {
    expect(
      filtersOfQuery(
        'issues',
        'status:open,blocked -severity:low label:bug label:a,b -label:wontfix assignee:me project:apo outcome:out_1',
        context,
      ),
    ).toEqual({
      status: ['open', 'blocked'],
      '-severity': ['low'],
      labels: ['bug'],
      labelsAny: ['a', 'b'],
      labelsNone: ['wontfix'],
      assigneeId: ['usr_me'],
      projectId: ['prj_apollo'],
      outcomeId: ['out_1'],
    });
    expect(filtersOfQuery('issues', 'assignee:none', context)).toEqual({ assigneeId: ['none'] });
  });

  it('turns comparisons and ranges of days into the inclusive-after and exclusive-before filters', () => {
    expect(filtersOfQuery('issues', 'due:<2026-12-31', context)).toEqual({ dueBefore: '2026-12-31' });
    expect(filtersOfQuery('issues', 'due:<=2026-12-31', context)).toEqual({ dueBefore: '2027-01-01' });
    expect(filtersOfQuery('issues', 'due:>2026-02-28', context)).toEqual({ dueAfter: '2026-03-01' });
    expect(filtersOfQuery('issues', 'due:>=2026-02-28', context)).toEqual({ dueAfter: '2026-02-28' });
    expect(filtersOfQuery('issues', 'due:2026-05-01', context)).toEqual({
      dueAfter: '2026-05-01',
      dueBefore: '2026-05-02',
    });
    expect(filtersOfQuery('issues', 'due:2026-05-01..2026-05-31', context)).toEqual({
      dueAfter: '2026-05-01',
      dueBefore: '2026-06-01',
    });
    expect(filtersOfQuery('issues', 'updated:>2026-11-01 created:*..2026-10-31', context)).toEqual({
      updatedSince: '2026-11-02T00:00:00.000Z',
      createdBefore: '2026-11-01T00:00:00.000Z',
    });
    expect(filtersOfQuery('issues', 'estimate:>=2 estimate:<=8', context)).toEqual({
      estimateMin: 2,
      estimateMax: 8,
    });
  });

  it('ANDs terms: any-of lists intersect, bounds tighten, none-of lists join', () => {
    expect(
      filtersOfQuery(
        'issues',
        'status:open,blocked status:blocked,closed due:<2026-12-31 due:<2026-06-01',
        context,
      ),
    ).toEqual({ status: ['blocked'], dueBefore: '2026-06-01' });
    expect(filtersOfQuery('issues', '-label:a -label:b', context)).toEqual({ labelsNone: ['a', 'b'] });
  });

  it('reads is:overdue as due before today and still open, is:archived and is:blocked as their parameters', () => {
    expect(filtersOfQuery('issues', 'is:overdue', context)).toEqual({
      dueBefore: '2026-11-20',
      status: ['open', 'in_progress', 'blocked'],
    });
    expect(filtersOfQuery('outcomes', 'is:overdue', context)).toEqual({
      dueBefore: '2026-11-20',
      status: ['planned', 'in_progress'],
    });
    expect(filtersOfQuery('issues', 'is:archived -is:blocked', context)).toEqual({
      archived: 'only',
      blocked: 'false',
    });
  });

  it('reads sort:<field>-<direction>, descending unless asked, and joins the free text into one', () => {
    expect(filtersOfQuery('issues', 'sort:updated-desc', context)).toEqual({ sort: '-updatedAt' });
    expect(filtersOfQuery('issues', 'sort:due-asc', context)).toEqual({ sort: 'dueOn' });
    expect(filtersOfQuery('outcomes', 'sort:due', context)).toEqual({ sort: '-dueDate' });
    expect(filtersOfQuery('issues', 'checkout "fails often"', context)).toEqual({
      q: 'checkout fails often',
    });
  });

  it.each([
    ['issues', 'status:open severity:urgent', 'severity:urgent', 12],
    ['issues', 'colour:red', 'colour:red', 0],
    ['issues', 'due:tomorrow', 'due:tomorrow', 0],
    ['issues', 'due:2026-02-30', 'due:2026-02-30', 0],
    ['issues', 'estimate:>3', 'estimate:>3', 0],
    ['issues', '-is:overdue', '-is:overdue', 0],
    ['issues', 'is:late', 'is:late', 0],
    ['issues', 'project:ZZZ', 'project:ZZZ', 0],
    ['issues', 'assignee:bob', 'assignee:bob', 0],
    ['issues', 'label:a,,b', 'label:a,,b', 0],
    ['issues', 'label:a,b label:c,d', 'label:c,d', 10],
    ['issues', 'sort:colour', 'sort:colour', 0],
    ['issues', '-due:<2026-01-01', '-due:<2026-01-01', 0],
    ['issues', '-"free text"', '-"free text"', 0],
    ['outcomes', 'is:blocked', 'is:blocked', 0],
    ['decisions', 'status:accepted words', 'words', 16],
  ] as const)('on %s, refuses %j at the term %j (offset %i)', (resource, query, term, offset) => {
    expect(refusal(resource, query)).toEqual({ term, offset });
  });
});
