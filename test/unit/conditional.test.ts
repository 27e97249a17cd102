import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import {
  etagFor,
  noneMatchHits,
  parseIfMatch,
  preconditionHolds,
} from '../../src/core/pipeline/conditional.js';

describe('conditional requests', () => {
  it('quotes the version as a strong ETag', () => {
    expect(etagFor(7)).toBe('"7"');
  });

  it('matches If-Match by strong comparison', () => {
    expect(preconditionHolds(parseIfMatch('"3"'), 3)).toBe(true);
    expect(preconditionHolds(parseIfMatch('"2", "3"'), 3)).toBe(true);
    expect(preconditionHolds(parseIfMatch('"2"'), 3)).toBe(false);
    expect(preconditionHolds(parseIfMatch('W/"3"'), 3)).toBe(false);
    expect(preconditionHolds(parseIfMatch('*'), 3)).toBe(true);
    // The tag's text is compared: another spelling of the number is another tag.
    expect(preconditionHolds(parseIfMatch('"03"'), 3)).toBe(false);
    expect(preconditionHolds(parseIfMatch('03'), 3)).toBe(false);
    expect(preconditionHolds(parseIfMatch('"3.0"'), 3)).toBe(false);
  });

  it('accepts a bare version number in If-Match', () => {
    expect(preconditionHolds(parseIfMatch('3'), 3)).toBe(true);
  });

  it('refuses a malformed If-Match with validation_failed', () => {
    expect(() => parseIfMatch('abc')).toThrow(ApiError);
    try {
      parseIfMatch('abc');
    } catch (error) {
      expect((error as ApiError).code).toBe('validation_failed');
      expect((error as ApiError).status).toBe(400);
    }
  });

  it('matches If-None-Match by weak comparison', () => {
    expect(noneMatchHits('"4"', 4)).toBe(true);
    expect(noneMatchHits('W/"4"', 4)).toBe(true);
    expect(noneMatchHits('"1", "4"', 4)).toBe(true);
    expect(noneMatchHits('"5"', 4)).toBe(false);
    expect(noneMatchHits('*', 4)).toBe(true);
  });
});
