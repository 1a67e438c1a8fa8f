import { within } from '@testing-library/react';

/** Each body row of a table as its cells' text, from cell `from` on (a checkbox's left out). */
export const rowTexts = (table: HTMLElement, from = 0) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(from)
        .map((cell) => cell.textContent),
    );
