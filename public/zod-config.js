// The console's CSP forbids eval, and zod 4 probes `new Function` as soon as a schema object is
// built, which the browser reports as a violation. zod takes its settings from this global when it
// loads: a classic script runs before the app's module scripts, so every schema is built jitless.
globalThis.__zod_globalConfig = { jitless: true };
