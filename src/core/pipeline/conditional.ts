import { ApiError } from '../errors.js';

/** Conditional requests: strong ETags derived from a resource's integer version. */

export const etagFor = (version: number): string => `"${version}"`;

/** A parsed If-Match: any current version (`*`), or the versions it names. */
export type Precondition = { kind: 'any' } | { kind: 'versions'; versions: number[] };

const entityTag = /^(W\/)?"([^"]*)"$/;

/** An entity tag (RFC 9110: printable ASCII but `"` between the quotes) or a bare version number. */
const tagSyntax = String.raw`(?:W/)?"[\x21\x23-\x7e]*"|[0-9]+`;

/**
 * What If-Match may hold, the one rule the server checks and the OpenAPI document states: `*`
 * alone, or a list of tags with no empty item, spaces or tabs around them and around the commas.
 */
export const ifMatchPattern = String.raw`^[ \t]*(?:\*|(?:${tagSyntax})(?:[ \t]*,[ \t]*(?:${tagSyntax}))*)[ \t]*$`;
const ifMatchSyntax = new RegExp(ifMatchPattern);

/** Parses an If-Match header. Weak tags never match (RFC 9110 strong comparison); a bare number is accepted. */
export function parseIfMatch(header: string): Precondition {
  if (!ifMatchSyntax.test(header)) {
    throw new ApiError(400, 'validation_failed', 'If-Match must be "*" or a list of quoted ETags.', {
      issues: [{ in: 'header', path: 'if-match', message: 'expected an ETag such as "3"' }],
    });
  }
  if (header.trim() === '*') return { kind: 'any' };
  const versions: number[] = [];
  for (const part of header.split(',')) {
    const tag = part.trim();
    const quoted = entityTag.exec(tag);
    const value = quoted ? (quoted[1] ? null : (quoted[2] as string)) : tag;
    // Only a version's own spelling matches: strong comparison is of the tag's text, and "03"
    // is not the tag "3" is.
    if (value !== null && /^(0|[1-9]\d*)$/.test(value)) versions.push(Number(value));
  }
  return { kind: 'versions', versions };
}

export function preconditionHolds(precondition: Precondition, version: number): boolean {
  return precondition.kind === 'any' || precondition.versions.includes(version);
}

/** Whether If-None-Match names this version (weak comparison, so W/ tags count). */
export function noneMatchHits(header: string, version: number): boolean {
  return noneMatchNames(header, etagFor(version));
}

/** Whether If-None-Match names this entity tag (a version's, or a digest of a report: weak comparison). */
export function noneMatchNames(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((part) => part.trim().replace(/^W\//, '') === etag);
}

/** The 409 for a stale If-Match, carrying the current ETag as the seed asks. */
export const versionConflict = (current: number): ApiError =>
  new ApiError(
    409,
    'version_conflict',
    `If-Match does not match the current version (${current}): the resource changed since it was read. Re-fetch it and retry.`,
    { currentVersion: current },
    { ETag: etagFor(current) },
  );
