import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef, type CSSProperties } from 'react';
import type { LogLine } from '../../../api/logs';
import { formatClock } from '../../../lib/time';
import { splitOnMatches } from './log-search';
import classes from './LogLines.module.css';

const ROW_HEIGHT = 20;

interface LogRowProps {
  line: LogLine;
  index: number;
  term: string;
  active: boolean;
  timeZone: 'local' | 'utc' | null;
  style: CSSProperties;
  measure?: (element: HTMLElement | null) => void;
}

const LogRow = memo(function LogRow({
  line,
  index,
  term,
  active,
  timeZone,
  style,
  measure,
}: LogRowProps) {
  return (
    <div
      ref={measure}
      data-index={index}
      data-testid="log-line"
      data-stream={line.stream}
      className={classes.row}
      data-active={active || undefined}
      style={style}
    >
      {timeZone && line.at && (
        <span className={classes.time}>{formatClock(line.at, timeZone)} </span>
      )}
      {splitOnMatches(line.text, term).map((part, i) =>
        i % 2 === 1 ? <mark key={i}>{part}</mark> : part,
      )}
    </div>
  );
});

export interface LogLinesProps {
  lines: readonly LogLine[];
  term: string;
  /** The search match to bring into view, if any. */
  activeLine: number | null;
  /** Null hides the times. */
  timeZone: 'local' | 'utc' | null;
  wrap: boolean;
  follow: boolean;
  /** The reader scrolled: away from the end (stop following) or back to it (follow again). */
  onFollowChange: (follow: boolean) => void;
}

/**
 * The output, virtualized: only the rows in view (and a margin) are in the DOM, so a job that
 * prints thousands of lines a second costs a few dozen rows per frame. While following, each new
 * batch scrolls to the end; a reader who scrolls up keeps their place.
 */
export function LogLines({
  lines,
  term,
  activeLine,
  timeZone,
  wrap,
  follow,
  onFollowChange,
}: LogLinesProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // Scroll events come from us (following) as well as from the reader; only the reader's count.
  const readerScrollUntil = useRef(0);
  const dragging = useRef(false);
  // The virtualizer re-renders this component as it scrolls; nothing here relies on memoizing it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });

  useLayoutEffect(() => {
    if (follow && lines.length > 0) virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
  }, [follow, lines.length, virtualizer]);
  useEffect(() => {
    if (activeLine !== null) virtualizer.scrollToIndex(activeLine, { align: 'center' });
  }, [activeLine, virtualizer]);

  const readerIsScrolling = () => {
    readerScrollUntil.current = performance.now() + 400;
  };
  const onScroll = () => {
    if (!dragging.current && performance.now() > readerScrollUntil.current) return;
    const element = scrollRef.current!;
    const atEnd = element.scrollTop + element.clientHeight >= element.scrollHeight - ROW_HEIGHT;
    if (atEnd !== follow) onFollowChange(atEnd);
  };

  return (
    <div
      ref={scrollRef}
      className={classes.viewport}
      role="log"
      aria-live="off"
      aria-label="Job output"
      tabIndex={0}
      data-testid="job-logs"
      data-wrap={wrap || undefined}
      onScroll={onScroll}
      onWheel={readerIsScrolling}
      onTouchMove={readerIsScrolling}
      onKeyDown={readerIsScrolling}
      onPointerDown={() => (dragging.current = true)}
      onPointerUp={() => (dragging.current = false)}
    >
      <div className={classes.canvas} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <LogRow
            key={item.key}
            index={item.index}
            line={lines[item.index]!}
            term={term}
            active={item.index === activeLine}
            timeZone={timeZone}
            measure={wrap ? virtualizer.measureElement : undefined}
            style={{ transform: `translateY(${item.start}px)` }}
          />
        ))}
      </div>
    </div>
  );
}
