import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';

/** One hour: its label and the share of the capacity held, average and peak, in percent. */
export interface ShareHour {
  label: string;
  average: number;
  peak: number;
}

const SERIES = [
  { name: 'average', color: 'blue.7' },
  { name: 'peak', color: 'orange.7' },
];

/**
 * The last day of a project's share as lines, loaded on its own (React.lazy) as the overview's
 * trend bars are: recharts stays out of the page's first script. It is a picture: the card says
 * the day's figures in words.
 */
export default function ShareDayChart({ hours }: { hours: ShareHour[] }) {
  return (
    <LineChart
      h={120}
      data={hours}
      dataKey="label"
      series={SERIES}
      withLegend
      withDots={false}
      unit=" %"
      yAxisProps={{ domain: [0, 100] }}
      lineChartProps={{ accessibilityLayer: false }}
      data-testid="share-day-chart"
    />
  );
}
