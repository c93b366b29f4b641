// Limits that both the CLI's option parsing (--help shows them) and the code that applies them need,
// in the lowest layer so the CLI can name them without loading that code.
/** GitHub refuses issue and pull-request comment bodies longer than this. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** Default cap: room under the limit for the marker line the action prepends and for any wrapper. */
export const DEFAULT_COMMENT_MAX = 60_000;
