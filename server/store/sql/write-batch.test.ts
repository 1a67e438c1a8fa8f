import { describe, expect, it } from 'vitest';
import { WriteBatch } from './write-batch';

/** A writer that records its calls; items named "bad" make a batch fail as a name clash would. */
function recorder() {
  const calls: string[][] = [];
  const batch = new WriteBatch<string, string>(
    async (items) => {
      calls.push(items);
      if (items.includes('bad')) throw new Error('unique violation');
      return items.map((item) => `${item}: batched`);
    },
    async (item) => {
      calls.push([`alone ${item}`]);
      if (item === 'bad') throw new Error(`refused ${item}`);
      return `${item}: alone`;
    },
  );
  return { calls, batch };
}

describe('WriteBatch (group commit)', () => {
  it('writes what arrives in one turn together, and answers each caller', async () => {
    const { calls, batch } = recorder();
    const answers = await Promise.all(['a', 'b', 'c'].map((item) => batch.add(item)));
    expect(answers).toEqual(['a: batched', 'b: batched', 'c: batched']);
    expect(calls).toEqual([['a', 'b', 'c']]);
  });

  it('writes a lone item on its own', async () => {
    const { calls, batch } = recorder();
    expect(await batch.add('x')).toBe('x: alone');
    expect(calls).toEqual([['alone x']]);
  });

  it('falls back to one transaction per item when the batch fails, so only the bad one fails', async () => {
    const { calls, batch } = recorder();
    const answers = await Promise.allSettled(['a', 'bad', 'c'].map((item) => batch.add(item)));
    expect(answers).toEqual([
      { status: 'fulfilled', value: 'a: alone' },
      { status: 'rejected', reason: new Error('refused bad') },
      { status: 'fulfilled', value: 'c: alone' },
    ]);
    expect(calls).toEqual([['a', 'bad', 'c'], ['alone a'], ['alone bad'], ['alone c']]);
  });

  it('gathers what arrives while a batch is written into the next one', async () => {
    const { calls, batch } = recorder();
    const first = Promise.all([batch.add('a'), batch.add('b')]);
    await new Promise((r) => setImmediate(r)); // the first batch is being written now
    const second = Promise.all([batch.add('c'), batch.add('d')]);
    await Promise.all([first, second]);
    expect(calls).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});
