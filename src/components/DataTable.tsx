import { Loader, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

/** One column, declared as data: what its header says and what each row shows in it. */
export interface DataColumn<Row> {
  /** The header's text; below 600 px also the name before each value (card-tables.css). */
  header: string;
  cell: (row: Row) => ReactNode;
  /** A header for screen readers alone (a column of buttons), and no name before its cells. */
  hideHeader?: boolean;
  /** The narrowest the column may get, where a narrower one cuts its content. */
  minWidth?: number;
  /** Ids, actors and addresses: characters that read alike (0 and O, l and 1) told apart. */
  monospace?: boolean;
}

interface DataTableProps<Row> {
  /** The table's accessible name; "Loading …" while `rows` is undefined. */
  label: string;
  columns: readonly DataColumn<Row>[];
  /** Undefined while they load. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  /** Each body row's `data-testid`, which the tests find rows by. */
  rowTestId: string;
  /** What an empty list says instead of a table with no rows. */
  empty: ReactNode;
  /** Wider than the window, the table scrolls sideways (a phone shows cards instead). */
  minWidth: number;
  withTableBorder?: boolean;
}

/**
 * The console's table of records: a loader, an empty state or the rows, each row a card on a
 * phone (`data-cards`), every column header a `th scope="col"`.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowTestId,
  empty,
  minWidth,
  withTableBorder,
}: DataTableProps<Row>) {
  if (rows === undefined) return <Loader size="sm" aria-label={`Loading ${label}`} />;
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table data-cards striped withTableBorder={withTableBorder} fz="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.header} scope="col" miw={column.minWidth}>
                {column.hideHeader ? (
                  <VisuallyHidden>{column.header}</VisuallyHidden>
                ) : (
                  column.header
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} data-testid={rowTestId}>
              {columns.map((column) => (
                <Table.Td
                  key={column.header}
                  data-label={column.hideHeader ? undefined : column.header}
                  ff={column.monospace ? 'monospace' : undefined}
                >
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
