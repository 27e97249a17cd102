/** What the build reads, relative to the repository: a directory stands for everything under it. */
export const buildInputs: readonly string[];
/** Written last by a build that succeeded; its time is when that build started. */
export const stampPath: string;
/** Why `root` needs building: the inputs modified after the last build, or the outputs missing. */
export function staleness(root: string): string[];
