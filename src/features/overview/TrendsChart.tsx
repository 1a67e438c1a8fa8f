import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { ReferenceArea } from 'recharts';
import { INCIDENT_SHADE } from './incident-shade';

/** One bar: the bucket's label and its jobs by outcome. */
export interface TrendBar {
  label: string;
  completed: number;
  failed: number;
  cancelled: number;
}

const SERIES = [
  { name: 'completed', color: 'teal.7' },
  { name: 'failed', color: 'red.7' },
  { name: 'cancelled', color: 'gray.6' },
];

/** A window to mark behind the bars: from one bucket's label to another's. */
export interface TrendMark {
  from: string;
  to: string;
  kind: 'engine_unreachable' | 'queue_paused';
}

/**
 * Stacked bars of ended jobs, loaded on its own (React.lazy): recharts is most of the overview's
 * script, and the page is of use before it arrives. It is a picture: TrendsSection gives the
 * same numbers as a table for screen readers.
 */
export default function TrendsChart({
  bars,
  marks = [],
}: {
  bars: TrendBar[];
  marks?: TrendMark[];
}) {
  return (
    <BarChart
      h={220}
      data={bars}
      dataKey="label"
      type="stacked"
      series={SERIES}
      withLegend
      tickLine="y"
      yAxisProps={{ allowDecimals: false }}
      barChartProps={{ accessibilityLayer: false }}
      data-testid="trends-chart"
    >
      {marks.map((mark) => (
        <ReferenceArea
          key={`${mark.kind}-${mark.from}`}
          x1={mark.from}
          x2={mark.to}
          fill={INCIDENT_SHADE[mark.kind]}
          fillOpacity={0.15}
          ifOverflow="extendDomain"
        />
      ))}
    </BarChart>
  );
}
