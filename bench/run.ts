import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import {
  buildIfChanged,
  removeRunContainers,
  runId,
  startService,
  type TestService,
} from '../test/support/service';
import { BENCH_SETTINGS, rssMiB } from './jobdeck-client';
import { missingPrerequisites } from './prerequisites';
import { sleep } from './stats';
import { plan, STEPS } from './steps';

/**
 * `npm run bench [-- step …]`: the real service (SQLite, local Docker) measured next to the engine
 * it drives. Without names every step runs (the slurm step only while a cluster is up); `npm run bench -- --list` names them. Each step's
 * figures print as it ends, and what was measured is saved after every step, so a step that
 * fails (or a run cut short) keeps the figures before it.
 */
const ROOT = resolve(import.meta.dirname, '..');
const log = (line: string) => process.stdout.write(`${line}\n`);

function chosenSteps(names: string[]) {
  if (names.length === 0) return STEPS.filter((step) => step.byDefault?.() ?? true);
  const unknown = names.filter((name) => !STEPS.some((step) => step.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown step ${unknown.join(', ')}; the steps: ${STEPS.map((s) => s.name).join(', ')}`,
    );
  }
  return STEPS.filter((step) => names.includes(step.name));
}

function table(rows: [string, string][]): string {
  return ['| figure | value |', '| --- | --- |', ...rows.map(([f, v]) => `| ${f} | ${v} |`)].join(
    '\n',
  );
}

async function main(args: string[]) {
  if (args.includes('--list')) {
    for (const step of STEPS) log(`${step.name.padEnd(11)} ${step.title}`);
    return;
  }
  const steps = chosenSteps(args);
  const missing = missingPrerequisites(steps);
  if (missing.length > 0) {
    throw new Error(`this machine cannot run the bench as asked:\n  ${missing.join('\n  ')}`);
  }

  process.env.JOBDECK_TEST_RUN = `bench-${Date.now()}`;
  execFileSync(join(ROOT, 'scripts', 'build-test-image.sh'), { stdio: 'inherit' });
  buildIfChanged();
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version };
  // Every step it runs by default (a step that is off by default, run or not, changes nothing).
  const whole = STEPS.every((step) => steps.includes(step) || !(step.byDefault?.() ?? true));
  log(
    `Jobdeck bench on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}${plan.quick ? ' (QUICK: not comparable)' : ''}`,
  );

  const when = new Date().toISOString();
  const results: Record<string, unknown> = { when, quick: plan.quick, machine, plan };
  const failed: string[] = [];
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  // A quick run is a smoke test and a partial run measures only some steps: both are kept apart
  // (quick.json is out of git) so that neither ever replaces latest.json.
  const stamp = when.replace(/[:.]/g, '-');
  const file = plan.quick ? 'quick.json' : whole ? `${stamp}.json` : `${stamp}-partial.json`;
  const save = (name: string) =>
    writeFileSync(join(dir, name), `${JSON.stringify({ ...results, failed }, null, 2)}\n`);

  let service: TestService | undefined;
  // The steps that measure the shared service start it on first use, with the console.
  const shared = async () => {
    if (!service) {
      service = await startService(BENCH_SETTINGS, undefined, { withConsole: true });
      await sleep(1000);
      results.idleRssMiB = rssMiB(service.pid());
    }
    return service;
  };
  const rows: [string, string][] = [];
  try {
    for (const [index, step] of steps.entries()) {
      log(`\n${index + 1}/${steps.length} ${step.name}: ${step.title} …`);
      try {
        const result = await step.run(shared);
        results[step.name] = result;
        const figures = step.rows(result);
        rows.push(...figures);
        log(table(figures));
      } catch (error) {
        failed.push(step.name);
        log(`step ${step.name} failed: ${(error as Error).stack ?? String(error)}`);
      }
      save(file);
      // The steps after the shared ones start services of their own: stop it to free the CPU.
      if (service && !steps.slice(index + 1).some((next) => next.needsSharedService)) {
        await service.stop();
        service = undefined;
      }
    }
  } finally {
    await service?.stop();
    removeRunContainers(runId());
  }
  if (results.idleRssMiB !== undefined && results.api) {
    rows.push([
      'RSS idle / peak under API load',
      `${results.idleRssMiB} MiB / ${(results.api as { peakRssMiB: number }).peakRssMiB} MiB`,
    ]);
  }
  if (whole && !plan.quick && failed.length === 0) save('latest.json');
  log(`\nAll figures of this run:\n\n${table(rows)}`);
  log(
    `saved bench/results/${file}${whole && !plan.quick && failed.length === 0 ? ', latest.json' : ''}`,
  );
  if (failed.length > 0) throw new Error(`steps that failed: ${failed.join(', ')}`);
}

// A step awaiting what never comes leaves Node nothing to do, and it would exit with 0 as if
// the run were done: say so, and fail.
const settlesNever = () => {
  process.stderr.write(
    'bench: a step waited for what never came (Node had nothing left to do); the steps before it are saved in bench/results\n',
  );
  process.exitCode = 1;
};
process.once('beforeExit', settlesNever);

main(process.argv.slice(2)).then(
  () => process.off('beforeExit', settlesNever),
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
