#!/usr/bin/env bash
# The service suite's files where PostgreSQL is more than a driver, each service on a database of
# its own (CONTRIBUTING.md). What a driver does is the store contract suite's, over both
# databases (test/store): the service files of features whose whole store part is there
# (retries, dependencies, arrays, queue controls, labels, views, bulk actions, retention, roles,
# audit) run on SQLite only. `JOBDECK_TEST_STORE=postgres npx vitest run --project service` runs
# all of them on PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
export JOBDECK_TEST_STORE=postgres

# Whole files: keys, sealed values and password hashes at rest in the database's own files and
# log; backup and rotation; the event feed across restarts and instances, and past a change that
# commits 30 s after taking its number; recovery after SIGKILL;
# console sign-in, whose users and sessions have no contract suite; the lifecycle end to end;
# a project's limits with creates racing at two instances.
npx vitest run --project service \
  test/service/auth.test.ts \
  test/service/backup.test.ts \
  test/service/events.test.ts \
  test/service/events-instances.test.ts \
  test/service/events-slow-reader.test.ts \
  test/service/late-commit.test.ts \
  test/service/lifecycle.test.ts \
  test/service/oidc-sign-in.test.ts \
  test/service/project-limits.test.ts \
  test/service/recovery.test.ts \
  test/service/secrets.test.ts \
  test/service/secrets-rotation.test.ts \
  test/service/sessions-instances.test.ts \
  test/service/sign-in.test.ts \
  test/service/stress.test.ts

# Of these, only what two instances sharing one database do: each firing, delivery and trend
# point once, whichever instance made it.
npx vitest run --project service --testNamePattern 'PostgreSQL store' \
  test/service/schedules.test.ts \
  test/service/trends.test.ts \
  test/service/webhooks.test.ts

# Retention's store part is more than a driver's here: a wait judged met stays met once the job it
# named is deleted (migration 032's trigger on jobs).
npx vitest run --project service --testNamePattern 'a wait judged met stays met' \
  test/service/retention.test.ts
