import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { TestMantine } from '../test/theme';
import { DataTable, type DataColumn } from './DataTable';

interface Fruit {
  id: string;
  name: string;
  count: number;
}

const COLUMNS: DataColumn<Fruit>[] = [
  { header: 'Name', cell: (fruit) => fruit.name },
  { header: 'Count', minWidth: 120, monospace: true, cell: (fruit) => fruit.count },
  { header: 'Actions', hideHeader: true, cell: (fruit) => <button>Eat {fruit.name}</button> },
];

const renderTable = (rows: Fruit[] | undefined, empty: ReactNode = 'No fruit yet.') =>
  render(
    <TestMantine>
      <DataTable
        label="Fruit"
        columns={COLUMNS}
        rows={rows}
        rowKey={(fruit) => fruit.id}
        rowTestId="fruit"
        empty={empty}
        minWidth={600}
      />
    </TestMantine>,
  );

describe('the console’s table of records', () => {
  it('names itself, heads each column with a th scope="col", and renders each row’s cells', () => {
    renderTable([
      { id: 'a', name: 'apple', count: 3 },
      { id: 'p', name: 'pear', count: 1 },
    ]);
    const table = screen.getByRole('table', { name: 'Fruit' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Count', 'Actions']);
    for (const header of headers) expect(header).toHaveAttribute('scope', 'col');
    const rows = screen.getAllByTestId('fruit');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['apple', '3', 'Eat apple'],
      ['pear', '1', 'Eat pear'],
    ]);
  });

  it('names each value for the phone’s cards, but not a column headed for screen readers only', () => {
    renderTable([{ id: 'a', name: 'apple', count: 3 }]);
    const cells = within(screen.getByTestId('fruit')).getAllByRole('cell');
    expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual(['Name', 'Count', null]);
    expect(screen.getByRole('table')).toHaveAttribute('data-cards');
  });

  it('shows a loader named after the table while its rows load', () => {
    renderTable(undefined);
    expect(screen.getByLabelText('Loading Fruit')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says so instead of drawing an empty table', () => {
    renderTable([]);
    expect(screen.getByText('No fruit yet.')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
