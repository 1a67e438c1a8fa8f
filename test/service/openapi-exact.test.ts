import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATH_SEGMENT_MAX_LENGTH } from '../../contract';
import {
  CaseGenerator,
  type Case,
  type Fixtures,
  type OpenApiDocument,
} from '../support/openapi-cases';
import { startService, type TestService } from '../support/service';

/**
 * The OpenAPI document describes exactly what the service accepts: cases generated from the
 * document the running service serves (real SQLite, real Docker), positive and negative, for
 * every operation (docs/guides/openapi.md).
 */

let service: TestService;
let document: OpenApiDocument;
let fixtures: Fixtures;

beforeAll(async () => {
  service = await startService();
  document = (await service.request('GET', '/v1/openapi.json')).body as unknown as OpenApiDocument;
  fixtures = await realReferences();
});
afterAll(() => service.stop());

/** What the document cannot generate: things that must exist, tokens the service issued. */
async function realReferences(): Promise<Fixtures> {
  // Into the paused queue: the cases' jobs are stored and listed, and no container starts.
  const submit = async () =>
    (
      await service.request('POST', '/v1/client/job', {
        job_definition: 't::echo:1',
        job_queue: 't::paused',
      })
    ).body.data as { id: string };
  const first = await submit();
  await submit();
  const jobsPage = await service.request('GET', '/v1/client/jobs?limit=1');
  const jobsCursor = (jobsPage.body.data as { next_cursor: string }).next_cursor;
  // The audit trail writes its events a moment later, in batches.
  let auditCursor: string | null = null;
  for (let tries = 0; auditCursor === null && tries < 50; tries++) {
    const page = await service.request('GET', '/v1/client/audit?limit=1');
    auditCursor = (page.body.data as { next_cursor: string | null }).next_cursor;
    if (auditCursor === null) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    'path:job_id': first.id,
    'path:queue': 't::single',
    'body:job_definition': 't::echo:1',
    'body:job_queue': 't::paused',
    // A dependency's rules across its fields (job_id unless sequential; sequential and n_to_n
    // for arrays) are said in the type's description, not in its schema: a real one here.
    'body:depends_on[]': { job_id: first.id },
    'body:depends_on[].job_id': first.id,
    // An array index's rule across fields (below array.size) is said in its description: 0 is
    // below every size.
    'body:array.indexes[]': 0,
    // What a job may ask for is bounded by its definition's `resources.max`, not the document:
    // t::echo:1 allows its own request (1 CPU, no GPU) at most.
    'submitJob body:resources.cpus': 1,
    'submitJob body:resources.gpus': 0,
    // A submission's out-of-memory ceiling is bounded by its definition, not the document:
    // the least the document allows is within t::echo:1's (the service's default memory).
    'submitJob body:retry.out_of_memory.max_memory_bytes': 6 * 2 ** 20,
    'path:job_definition': 't::echo:1',
    'body:queues[]': 't::default',
    'queueTrends query:queue': 't::default',
    'listJobs query:cursor': jobsCursor,
    'listAuditEvents query:cursor': auditCursor,
  };
}

interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

/**
 * The answer to a case. A kept-alive connection the service closed just as it was reused is
 * tried once more, as any client would; a second close is the answer (a fault).
 */
async function send(testCase: Case): Promise<Answer | string> {
  try {
    return await sendOnce(testCase);
  } catch {
    return sendOnce(testCase).catch((error: unknown) => `no answer: ${String(error)}`);
  }
}

async function sendOnce({ method, template, request }: Case): Promise<Answer> {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(request.path[name] ?? ''),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    for (const each of [value].flat()) query.append(name, each);
  }
  const search = query.size > 0 ? `?${query}` : '';
  const abort = new AbortController();
  const response = await fetch(`${service.baseUrl}${path}${search}`, {
    method,
    signal: abort.signal,
    headers: {
      authorization: `Bearer ${service.key}`,
      ...(request.body !== undefined && { 'content-type': 'application/json' }),
      ...request.header,
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    abort.abort(); // an endless stream: its status and type are the answer
    return { status: response.status, contentType, body: undefined };
  }
  const text = await response.text();
  const body: unknown = contentType.startsWith('application/json') ? JSON.parse(text) : text;
  return { status: response.status, contentType, body };
}

/** What is wrong with the answer to a case, or null when it is as the document says. */
function judge(testCase: Case, answer: Answer | string): string | null {
  if (typeof answer === 'string') return answer;
  const { status, body } = answer;
  if (status >= 500) return `answered ${status}`;
  const envelope = (body ?? {}) as { ok?: unknown; message?: unknown };
  const isJson = answer.contentType.startsWith('application/json');
  if (status >= 400) {
    if (!isJson || envelope.ok !== false || typeof envelope.message !== 'string') {
      return `answered ${status} outside the { ok: false, message } envelope`;
    }
  } else if (isJson && envelope.ok !== true) {
    return `answered ${status} outside the { ok: true } envelope`;
  }
  const message = typeof envelope.message === 'string' ? envelope.message : '';
  // Header names have no case: Last-Event-ID is last-event-id.
  const names = (text: string) =>
    testCase.where === 'header'
      ? message.toLowerCase().includes(text.toLowerCase())
      : message.includes(text);
  // A path parameter longer than the router takes is the documented 414, whatever it holds.
  if (status === 414 && segmentTooLong(testCase)) return null;
  if (testCase.positive) {
    if (status === 414)
      return `answered 414 to a path within ${PATH_SEGMENT_MAX_LENGTH} characters`;
    // The baseline (every required field at its plainest) may not be refused at all.
    const named = testCase.field === '' || names(testCase.field);
    return status === 400 && named ? `refused (400: ${message})` : null;
  }
  if (status !== 400) return `answered ${status}, not 400`;
  return [testCase.field, ...(testCase.alternatives ?? [])].some(names)
    ? null
    : `400 without the field: ${message}`;
}

const segmentTooLong = ({ request }: Case) =>
  Object.values(request.path).some(
    (value) => encodeURIComponent(value).length > PATH_SEGMENT_MAX_LENGTH,
  );

async function run(cases: Case[]): Promise<string[]> {
  const faults: string[] = [];
  for (const testCase of cases) {
    const fault = judge(testCase, await send(testCase));
    if (fault) {
      const sent = JSON.stringify(testCase.request).slice(0, 160);
      faults.push(
        `${testCase.operationId} ${testCase.positive ? '+' : '-'} ${testCase.where} ${testCase.field || '(all)'} [${testCase.why}]: ${fault} — sent ${sent}`,
      );
    }
  }
  return faults;
}

describe('the OpenAPI document', () => {
  it('describes exactly what every operation accepts: generated positive and negative cases', async () => {
    const cases = new CaseGenerator(document, fixtures).all();
    // Bounded: a few thousand requests at most.
    expect(cases.length).toBeGreaterThan(300);
    expect(cases.length).toBeLessThan(3000);
    const operations = new Set(cases.map((c) => c.operationId));
    expect(operations.size).toBe(
      Object.values(document.paths).flatMap((operations) => Object.keys(operations)).length,
    );
    expect(await run(cases)).toEqual([]);
    // Each operation adds its cases: past a minute on a loaded 2-core machine.
  }, 180_000);

  it('refuses an unknown query parameter on every GET', async () => {
    const cases = new CaseGenerator(document, fixtures).unknownQueryParameters();
    expect(await run(cases)).toEqual([]);
  });
});
