import { describe, expect, it } from 'vitest';
import { Assignment } from './assignment';

describe('Assignment', () => {
  it('gives every job to itself when alone', () => {
    const assignment = new Assignment('a', () => ['a']);
    expect(assignment.owners()).toEqual(['a']);
    assignment.gave(5);
    expect(assignment.owners()).toEqual(['a']);
  });

  it('goes round the live instances, carried from one claim to the next', () => {
    let members = ['a', 'b', 'c'];
    const assignment = new Assignment('a', () => members);
    expect(assignment.owners()).toEqual(['a', 'b', 'c']);
    assignment.gave(2); // a, b
    expect(assignment.owners()).toEqual(['c', 'a', 'b']);
    assignment.gave(1); // c
    expect(assignment.owners()).toEqual(['a', 'b', 'c']);
    members = ['a', 'c']; // b went silent: it gets nothing more
    assignment.gave(1); // a
    expect(assignment.owners()).toEqual(['a', 'c']);
    assignment.gave(1);
    expect(assignment.owners()).toEqual(['c', 'a']);
  });
});
