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
    // Keys and sort fields are the resource's own, not what every object inherits.
    ['issues', 'constructor:x', 'constructor:x', 0],
    ['issues', '__proto__:x', '__proto__:x', 0],
    ['outcomes', 'sort:constructor', 'sort:constructor', 0],
    ['issues', 'sort:constructor-asc', 'sort:constructor-asc', 0],
    // A day whose next day has no four-digit year, and a number too large to be one.
    ['issues', 'created:<=9999-12-31', 'created:<=9999-12-31', 0],
    ['issues', 'due:>9999-12-31', 'due:>9999-12-31', 0],
    ['issues', `estimate:>=${'9'.repeat(400)}`, `estimate:>=${'9'.repeat(400)}`, 0],
    // Lists joined over terms stay within a list parameter's 50 values.
    [
      'issues',
      '-label:l0x0,l0x1,l0x2,l0x3,l0x4,l0x5,l0x6,l0x7,l0x8,l0x9 -label:l1x0,l1x1,l1x2,l1x3,l1x4,l1x5,l1x6,l1x7,l1x8,l1x9 -label:l2x0,l2x1,l2x2,l2x3,l2x4,l2x5,l2x6,l2x7,l2x8,l2x9 -label:l3x0,l3x1,l3x2,l3x3,l3x4,l3x5,l3x6,l3x7,l3x8,l3x9 -label:l4x0,l4x1,l4x2,l4x3,l4x4,l4x5,l4x6,l4x7,l4x8,l4x9 -label:l5x0,l5x1,l5x2,l5x3,l5x4,l5x5,l5x6,l5x7,l5x8,l5x9',
      '-label:l5x0,l5x1,l5x2,l5x3,l5x4,l5x5,l5x6,l5x7,l5x8,l5x9',
      285,
    ],
  ] as const)('on %s, refuses %j at the term %j (offset %i)', (resource, query, term, offset) => {
    expect(refusal(resource, query)).toEqual({ term, offset });
  });
});
