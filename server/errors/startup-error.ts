/**
 * A start that cannot go on for a reason the operator fixes (configuration, a port, a directory,
 * the database, the engine). The CLI prints its message as one line, never a stack trace, so
 * every message says what is wrong and what to do about it. Here, below every layer that throws
 * it (config, auth, store, app, cli), so that none of them reaches up into app/ for it.
 */
export class StartupError extends Error {}
