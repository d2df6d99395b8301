// What the tree views redraw for a change. VS Code sends a tree refresh to the window at
// once, but holds any further one of the same view for 200 ms: the store's, health's and
// files' events of one log line must fold into one refresh, and a view whose rows did not
// move refreshes only the rows of the sessions that changed.

/** The changes of one turn, folded: the sessions named, and whether any session may have changed. */
export interface FoldedChange {
  /** Something not tied to one session changed (a load, a removal, another session or version shown). */
  readonly all: boolean;
  readonly sessions: ReadonlySet<string>;
}

/** Collects the changes of one turn and hands them on once, in a later microtask. */
export class ChangeFold {
  private all = false;
  private sessions = new Set<string>();
  private queued = false;

  constructor(
    private readonly flush: (change: FoldedChange) => void,
    private readonly schedule: (run: () => void) => void,
  ) {}

  /** A change of one session, or of any (undefined). */
  add(session?: string): void {
    if (session === undefined) this.all = true;
    else this.sessions.add(session);
    if (this.queued) return;
    this.queued = true;
    this.schedule(() => {
      const change: FoldedChange = { all: this.all, sessions: this.sessions };
      this.queued = false;
      this.all = false;
      this.sessions = new Set();
      this.flush(change);
    });
  }
}

/** The Sessions view's rows as a shape: which rows, in which order, under which parent. */
export interface RowsLayout {
  /** One key per row, in order; equal keys mean the same rows in the same places. */
  readonly key: string;
  /** The sessions with a row, each with the session whose row holds it (if any). */
  readonly parents: ReadonlyMap<string, string | undefined>;
}

/**
 * What a list of session rows redraws: `root` when its rows moved (a session came, went or
 * changed places, or something not tied to a session changed), else the listed sessions whose
 * rows show something new: those that changed and the parents that count their subagents.
 * Empty: nothing on screen changed.
 */
export function rowsToRefresh(before: RowsLayout | undefined, after: RowsLayout, change: FoldedChange, alsoChanged: Iterable<string> = []): 'root' | string[] {
  if (change.all || before === undefined || before.key !== after.key) return 'root';
  const rows = new Set<string>();
  for (const session of [...change.sessions, ...alsoChanged]) {
    if (!after.parents.has(session)) continue;
    rows.add(session);
    const parent = after.parents.get(session);
    if (parent !== undefined) rows.add(parent);
  }
  return [...rows];
}

/** A list's rows as drawn: what fixes each row's place (its shape) and what the row shows (its look). */
export interface DrawnRows {
  readonly shapes: readonly string[];
  readonly looks: readonly string[];
}

/**
 * What a list whose rows keep their places redraws: the indexes of the rows whose look
 * changed (each goes with its new look, no round trip), or `root` when any row came, went or
 * changed its shape. Empty: nothing changed.
 */
export function rowsInPlace(before: DrawnRows | undefined, after: DrawnRows): 'root' | number[] {
  if (!before || before.shapes.length !== after.shapes.length || before.shapes.some((shape, i) => shape !== after.shapes[i])) return 'root';
  const changed: number[] = [];
  after.looks.forEach((look, i) => {
    if (before.looks[i] !== look) changed.push(i);
  });
  return changed;
}
