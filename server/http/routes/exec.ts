import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket, RawData } from 'ws';
import type {} from '@fastify/websocket';
import {
  EXEC_STREAM_BYTE,
  execClientFrameSchema,
  execQuerySchema,
  jobOperations,
  type ExecServerFrame,
} from '../../../contract';
import type { ExecEnd, JobExec, JobExecSession } from '../../jobs/job-exec';
import { audit } from '../audit';
import { principalOf } from '../auth';
import { HttpError } from '../errors';
import { routePath } from '../operation-route';
import { ANY_QUERY, parseQuery } from '../query-rule';

export interface ExecRoutesOptions {
  exec: JobExec;
  /** The projects whose configuration enables exec (`projects.<p>.exec: true`). */
  enabledIn: ReadonlySet<string>;
}

const operation = jobOperations.execInJob;
type ExecRequest = { Params: { job_id: string } };

// A close code of the application's range: the session was ended for it (its `closed` frame says why).
const CLOSED_FOR_IT = 4000;

const notAnUpgrade = () =>
  new HttpError(
    426,
    `Upgrade: ${operation.path} is a WebSocket; connect with Connection: Upgrade and Upgrade: websocket (jobdeck exec does)`,
  );

/**
 * `GET /v1/client/job/{job_id}/exec`: a command in a running job, over a WebSocket. Everything
 * that can refuse it (role, project setting, job, state, engine) is checked before the upgrade,
 * so a refusal is an ordinary `{ ok: false, message }` answer.
 */
export function execRoutes(app: FastifyInstance, options: ExecRoutesOptions): void {
  const opened = new WeakMap<FastifyRequest, JobExecSession>();
  app.route<ExecRequest>({
    method: 'GET',
    url: routePath(operation.path),
    // The query is read in preHandler below, before the upgrade: the general rule
    // (query-rule.ts) reads it after every preHandler of the route, too late for that.
    config: { operation, query: ANY_QUERY },
    preHandler: async (request) => {
      const query = parseQuery(execQuerySchema, request.query);
      if (!request.ws) throw notAnUpgrade();
      const { project } = principalOf(request);
      if (!options.enabledIn.has(project)) {
        throw new HttpError(
          403,
          `exec: off in project "${project}"; its configuration enables it with projects.${project}.exec: true`,
        );
      }
      const session = await options.exec.open(project, request.params.job_id, {
        command: query.command,
        tty: query.tty,
        ...(query.cols && query.rows && { size: { cols: query.cols, rows: query.rows } }),
      });
      opened.set(request, session);
      // What ran, never what was typed: the keystrokes may hold a secret.
      audit(request, 'job.exec', request.params.job_id, { command: query.command, tty: query.tty });
    },
    handler: () => {
      throw notAnUpgrade();
    },
    wsHandler: (socket: WebSocket, request) => {
      const exec = opened.get(request);
      opened.delete(request);
      if (exec) relay(socket, exec);
    },
  });
}

/** Between the client's socket and the command, until one of them ends. */
function relay(socket: WebSocket, { session, ended }: JobExecSession): void {
  let over = false;
  const finish = (frame: ExecServerFrame) => {
    if (over) return;
    over = true;
    socket.send(JSON.stringify(frame));
    socket.close(frame.type === 'exit' ? 1000 : CLOSED_FOR_IT);
    session.close();
  };
  session.onOutput(({ stream, bytes }) => {
    if (!over) socket.send(Buffer.concat([Buffer.of(EXEC_STREAM_BYTE[stream]), bytes]));
  });
  socket.on('message', (data: RawData, isBinary: boolean) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    if (isBinary) return session.write(bytes);
    const frame = controlFrame(bytes);
    if (typeof frame === 'string') return finish({ type: 'closed', message: frame });
    if (frame.type === 'eof') session.endInput();
    else session.resize(frame).catch(() => undefined); // a resize as the command ends: moot
  });
  socket.on('close', () => {
    over = true;
    session.close();
  });
  void ended.then((end) => finish(serverFrameOf(end)));
}

/** A text frame from the client, or why it is not one this session takes. */
function controlFrame(bytes: Buffer) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'frame: a text frame must be JSON: {"type":"resize","cols":N,"rows":N} or {"type":"eof"}';
  }
  const frame = execClientFrameSchema.safeParse(parsed);
  return frame.success
    ? frame.data
    : `frame: must be {"type":"resize","cols":N,"rows":N} (1 to 1000 each) or {"type":"eof"}`;
}

const serverFrameOf = (end: ExecEnd): ExecServerFrame =>
  end.kind === 'exited'
    ? { type: 'exit', exit_code: end.exitCode }
    : { type: 'closed', message: 'job: the job ended, and the session with it' };
