// Which plan the sidebar shows: by default the session that wrote last; a session
// the user picks stays pinned until they follow the latest again; an older version
// of a session's plan can be shown until they return to the newest.
import { Emitter, type Disposable } from '../emitter';
import type { PlanRecord, PlanVersion } from '../log/sessionLog';
import type { PlanStore } from './store';

export interface ShownVersion extends PlanVersion {
  session: string;
  /** How many versions the session has saved since this one (1: the one before the latest). */
  behind: number;
}

export class DisplayState implements Disposable {
  private pinned: string | undefined;
  private version: ShownVersion | undefined;
  private readonly emitter = new Emitter<string | undefined>();
  private readonly subscription: Disposable;
  private readonly writes: Disposable;
  /**
   * Fires when what is on screen may have changed: with the session the store changed, or
   * undefined when the choice of session or version changed (or any session may have).
   */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly store: PlanStore,
    private following: boolean,
  ) {
    this.subscription = store.onDidChange((session) => {
      if (this.pinned !== undefined && store.get(this.pinned) === undefined) {
        this.pinned = undefined;
        this.version = undefined;
        session = undefined;
      }
      if (!this.following && this.pinned === undefined) this.pinned = store.latest()?.session;
      this.emitter.fire(session);
    });
    // An older version on screen keeps "n newer since" current as new versions arrive.
    this.writes = store.onDidWrite((event) => {
      if (this.version?.session === event.session) this.version = { ...this.version, behind: this.version.behind + 1 };
    });
  }

  get followingLatest(): boolean {
    return this.following;
  }

  get shownVersion(): ShownVersion | undefined {
    return this.version?.session === this.session ? this.version : undefined;
  }

  /** The session on screen. */
  get session(): string | undefined {
    if (!this.following && this.pinned !== undefined) return this.pinned;
    return this.store.latest()?.session;
  }

  /** The snapshot on screen: an older version if one is shown, else the session's current plan. */
  get event(): PlanRecord | undefined {
    const session = this.session;
    if (session === undefined) return undefined;
    return this.shownVersion?.event ?? this.store.get(session);
  }

  select(session: string): void {
    this.following = false;
    this.pinned = session;
    this.version = undefined;
    this.emitter.fire(undefined);
  }

  followLatest(): void {
    this.following = true;
    this.pinned = undefined;
    this.version = undefined;
    this.emitter.fire(undefined);
  }

  showVersion(version: ShownVersion): void {
    if (version.session !== this.session) {
      this.following = false;
      this.pinned = version.session;
    }
    this.version = version;
    this.emitter.fire(undefined);
  }

  showLatestVersion(): void {
    this.version = undefined;
    this.emitter.fire(undefined);
  }

  dispose(): void {
    this.subscription.dispose();
    this.writes.dispose();
    this.emitter.dispose();
  }
}
