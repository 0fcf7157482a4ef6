/** Raised for usage errors and internal failures (CLI exit code 2). Its own module: the CLI throws it before loading the configuration machinery. */
export class UsageError extends Error {}
