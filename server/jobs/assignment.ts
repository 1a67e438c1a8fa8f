/**
 * To whom the dispatcher gives the jobs it claims: the live instances in turn (round-robin),
 * carried over from one claim to the next, so that each instance runs about as many jobs as the
 * others whatever the size of each claim. Alone, an instance gives every job to itself.
 */
export class Assignment {
  private turn = 0;

  constructor(
    private readonly self: string,
    /** The instances jobs may go to now (Membership.liveMembers). */
    private readonly members: () => readonly string[],
  ) {}

  /** The owners for the next claim, in turn: its first job goes to the first of them. */
  owners(): readonly string[] {
    const members = this.members();
    if (members.length <= 1) return [this.self];
    const start = this.turn % members.length;
    return [...members.slice(start), ...members.slice(0, start)];
  }

  /** After a claim of `count` jobs: the next one starts with the instance after the last given. */
  gave(count: number): void {
    this.turn += count;
  }
}
