import { JOB_EVENT } from '../../../contract';
import type { JobReadModel } from '../../jobs/read-model';
import type { PositionCodec } from '../positions';
import { toJobListItem } from '../presenters';
import { sseBytes, type SseBytes } from './sse-writer';

/** Changes read per query while catching up. */
export const PAGE = 200;

/** One page of a project's changes, rendered once into the bytes every stream at `after` sends. */
export interface RenderedPage {
  /** How many changes it holds: fewer than PAGE, the stream is caught up to the page's `upto`. */
  count: number;
  /** The last change's sequence number (undefined when the page is empty). */
  lastSeq: number | undefined;
  bytes: SseBytes | undefined;
}

/**
 * The pages the streams read, shared: every stream of a project that is caught up asks for the
 * same page when the feed moves, so one query, one JSON and one buffer serve them all (per stream,
 * that was a query, a JSON and an encoding for each change, times the streams). Kept only for the
 * feed's current position; a stream that lags behind reads its own.
 */
export class SharedPages {
  private position = -1;
  private readonly pages = new Map<string, Promise<RenderedPage>>();

  constructor(
    private readonly reads: JobReadModel,
    private readonly positions: PositionCodec,
  ) {}

  page(project: string, after: number, upto: number): Promise<RenderedPage> {
    if (upto !== this.position) {
      this.pages.clear();
      this.position = upto;
    }
    const key = `${project}\u0000${after}`;
    let page = this.pages.get(key);
    if (!page) {
      page = this.render(project, after, upto);
      page.catch(() => this.pages.delete(key));
      this.pages.set(key, page);
    }
    return page;
  }

  private async render(project: string, after: number, upto: number): Promise<RenderedPage> {
    const changes = await this.reads.changes({
      project,
      afterSeq: after,
      uptoSeq: upto,
      limit: PAGE,
    });
    const text = changes
      .map(
        ({ seq, job }) =>
          `id: ${this.positions.encode(project, seq)}\nevent: ${JOB_EVENT}\ndata: ${JSON.stringify(toJobListItem(job))}\n\n`,
      )
      .join('');
    return {
      count: changes.length,
      lastSeq: changes.at(-1)?.seq,
      bytes: text === '' ? undefined : sseBytes(text),
    };
  }
}
