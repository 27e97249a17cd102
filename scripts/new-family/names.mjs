// The names of a new family, all made from the one the command is given (`release-notes`), so
// that the folder, the collection, the table, the routes, the events and the types agree.

/** A lowercase plural noun: words of a–z joined by hyphens, the last ending in s. */
const familyName = /^[a-z]+(?:-[a-z]+)*s$/;

/** `release-notes` → `release-note`; `categories` → `category`; `boxes` → `box`. */
function singularOf(plural) {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(?:ss|ch|sh|x|z)es$/.test(plural)) return plural.slice(0, -2);
  return plural.slice(0, -1);
}

const words = (kebab) => kebab.split('-');
const capitalized = (word) => word.charAt(0).toUpperCase() + word.slice(1);
const camel = (kebab) =>
  words(kebab)
    .map((word, i) => (i === 0 ? word : capitalized(word)))
    .join('');
const pascal = (kebab) => words(kebab).map(capitalized).join('');
const snake = (kebab) => words(kebab).join('_');

/** Why `name` cannot name a family, or null when it can. */
export function nameProblem(name) {
  if (typeof name !== 'string' || name === '') return 'give the family’s name: npm run new-family -- <name>';
  if (!familyName.test(name))
    return `"${name}" is not a family name: a lowercase plural noun, words of a-z joined by hyphens (milestones, release-notes)`;
  if (singularOf(name).length < 2) return `"${name}" is too short a noun`;
  return null;
}

/**
 * Every spelling of the family's name the scaffold writes. The id prefix is the singular without
 * its hyphens (`releasenote_…`), as `view_…` is the saved views'.
 */
export function namesOf(name) {
  const singular = singularOf(name);
  return {
    /** `release-notes`: the folder, the path and the family's name. */
    kebab: name,
    /** `releaseNotes`: the collection. */
    collection: camel(name),
    /** `release_notes`: the SQL table. */
    table: snake(name),
    /** `release note`: what the reference calls one. */
    noun: words(singular).join(' '),
    plural: words(name).join(' '),
    /** `release_note`: the events' prefix and the signal's resource type. */
    resourceType: snake(singular),
    idPrefix: words(singular).join(''),
    /** `ReleaseNote`, `ReleaseNotes`: the types and the operationIds. */
    Type: pascal(singular),
    Types: pascal(name),
    /** `releaseNote`: the family's values (`releaseNoteSchema`). */
    value: camel(singular),
  };
}
