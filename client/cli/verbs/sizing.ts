import type { Command } from 'commander';
import { createJobdeckClient, unwrap } from '../../src';
import { outputFormatOf, printFacts, printJson, type OutputFormat } from '../output';
import { mib } from '../usage-lines';
import type { VerbContext } from './context';

/**
 * A definition's right-size hint (GET …/definitions/{job_definition}/sizing): its recent runs'
 * peak memory (p95) and CPU time against what it asks for, as one sentence and the figures.
 */
async function showSizing(context: VerbContext, definition: string, output: OutputFormat) {
  const { data } = await unwrap(
    createJobdeckClient(context.connection()).GET(
      '/v1/client/definitions/{job_definition}/sizing',
      { params: { path: { job_definition: definition } } },
    ),
  );
  if (output === 'json') return printJson(data);
  const lines: [string, string][] = [
    ['definition', data.job_definition],
    ['hint', data.summary],
    ['runs', String(data.runs)],
    ['asked', `${mib(data.asked.memory_bytes)}, ${data.asked.cpus} CPU`],
  ];
  if (data.memory) {
    lines.push(
      ['memory p95', `${mib(data.memory.p95_peak_bytes)} (${data.memory.efficiency} of asked)`],
      ['memory max', mib(data.memory.max_peak_bytes)],
    );
  }
  if (data.cpu)
    lines.push(['cpu', `${data.cpu.efficiency} of wall × CPUs (${data.cpu.runs} runs)`]);
  printFacts(lines);
}

export function addSizing(program: Command, context: VerbContext): void {
  program
    .command('sizing <definition>')
    .description(
      "right-size a definition (project::name:version): its recent runs' peak memory and CPU time against what it asks for",
    )
    .option('-o, --output <format>', 'table or json', outputFormatOf, 'table' as OutputFormat)
    .action((definition: string, flags: { output: OutputFormat }) =>
      showSizing(context, definition, flags.output),
    );
}
