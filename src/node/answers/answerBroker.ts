// Takes the permission requests agents' hooks put in the answers folder (answerSpool.ts) and
// keeps those that wait on this window's user: a request of an agent this window can answer,
// from a session it follows, is acknowledged (its hook then waits up to the time this window
// gives) and listed until it ends: answered here, or its hook gone (answered at the agent's own
// prompt, timed out, or the agent ended). A request no window takes gets no answer: the agent
// asks at its own prompt, as without the hook. A request taken by a window whose process is gone
// since (reloaded) is taken over while its hook still waits. Only `answer` answers, on the
// user's click. No vscode here.
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { Emitter, type Disposable } from '../../core/emitter';
import type { AgentId } from '../../core/foreign';
import { acknowledge, openAnswersFolder, own, readRequest, requestName, stillAsked, takeOver, writeAnswer, type RequestName } from './answerSpool';
import type { Decision, HookRequest, PermissionHook } from './permissionHook';

/** A request this window took, waiting on the user. */
export interface PendingAnswer extends HookRequest {
  readonly id: string;
  readonly agent: AgentId;
  /** When this window took it (ISO). */
  readonly since: string;
  /** Until when its hook waits (ms since the epoch). */
  readonly until: number;
  readonly canAllow: boolean;
  readonly canDeny: boolean;
}

/** How a request ended: answered here (allow / deny), or its hook ended without an answer from here. */
export type AnswerEnd = { how: 'allow' | 'deny'; message?: string } | { how: 'ended' };

export interface AnswerBrokerOptions {
  readonly folder: string;
  /** The agents this window can answer, by id. */
  readonly hooks: ReadonlyMap<string, PermissionHook>;
  /** Seconds the hook may wait for this request, or 0: not this window's (it takes no request of a session it does not follow). */
  waitFor(hook: PermissionHook, request: HookRequest): number;
  /** A request file that is no request (reported once per file). */
  onError?(error: unknown, file: string): void;
  now?(): number;
  /** How often the hooks of taken requests are looked at (ms). */
  checkMs?: number;
}

/** A window's file for a request (its ack, its answer, its owner and that record's temporary or replaced copies), by the request's id. */
const LEFT_BEHIND = /^(?:own|ack|ans)\.([a-z][a-z-]{0,31}\.\d{1,10}\.\d{1,12})(?:\..*)?$/;

interface Taken {
  readonly name: RequestName;
  readonly pending: PendingAnswer;
  readonly hook: PermissionHook;
}

export class AnswerBroker implements Disposable {
  private readonly taken = new Map<string, Taken>();
  /** Names looked at already (taken, refused or left to other windows): each file is read once. */
  private readonly seen = new Set<string>();
  private readonly askedEmitter = new Emitter<PendingAnswer>();
  private readonly endedEmitter = new Emitter<{ pending: PendingAnswer; end: AnswerEnd }>();
  private watcher: fs.FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private again = false;
  private disposed = false;

  /** A request was taken: it waits on the user now. */
  readonly onDidAsk = this.askedEmitter.event;
  /** A taken request ended (answered here, or its hook gone). */
  readonly onDidEnd = this.endedEmitter.event;

  constructor(private readonly options: AnswerBrokerOptions) {}

  /** Makes the folder (owner-only) and watches it; requests already there are looked at. */
  async start(): Promise<void> {
    await openAnswersFolder(this.options.folder);
    if (this.disposed) return;
    this.watcher = fs.watch(this.options.folder, { persistent: false }, () => void this.scan());
    this.watcher.on('error', (error) => this.options.onError?.(error, this.options.folder));
    await this.scan();
  }

  /** The requests waiting on the user, oldest first. */
  pending(): PendingAnswer[] {
    return [...this.taken.values()].map((taken) => taken.pending);
  }

  /**
   * Answers a request (the user's click): its hook prints the agent's answer. False when it is
   * no longer waiting (answered elsewhere, ended) or the agent cannot take that answer.
   */
  async answer(id: string, decision: Decision, message?: string): Promise<boolean> {
    const taken = this.taken.get(id);
    if (taken === undefined) return false;
    if (decision === 'allow' ? !taken.hook.canAllow : !taken.hook.canDeny) return false;
    if (!(await stillAsked(this.options.folder, taken.name))) {
      this.end(id, { how: 'ended' });
      return false;
    }
    const written = await writeAnswer(this.options.folder, id, taken.hook.answer(decision, message));
    this.end(id, written ? { how: decision, ...(decision === 'deny' && message?.trim() ? { message: message.trim() } : {}) } : { how: 'ended' });
    return written;
  }

  /** Lets the hook go without an answer (the agent asks at its own prompt). */
  async withdraw(id: string): Promise<void> {
    if (!this.taken.has(id)) return;
    await writeAnswer(this.options.folder, id, '').catch(() => false);
    this.end(id, { how: 'ended' });
  }

  dispose(): void {
    this.disposed = true;
    this.watcher?.close();
    if (this.timer) clearTimeout(this.timer);
    this.askedEmitter.dispose();
    this.endedEmitter.dispose();
    this.taken.clear();
  }

  private scan(): Promise<void> {
    if (this.scanning) {
      this.again = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      do {
        this.again = false;
        await this.scanOnce().catch((error: unknown) => this.options.onError?.(error, this.options.folder));
      } while (this.again && !this.disposed);
    })().finally(() => {
      this.scanning = undefined;
    });
    return this.scanning;
  }

  private async scanOnce(): Promise<void> {
    if (this.disposed) return;
    const names = await fsp.readdir(this.options.folder);
    const present = new Set(names);
    // Names gone are forgotten (a pid and a second repeat only after a long while).
    for (const name of this.seen) if (!present.has(name)) this.seen.delete(name);
    // What a window wrote for a request whose hook is gone (killed before it could remove it, or ended as it was taken).
    for (const name of names) {
      const written = LEFT_BEHIND.exec(name);
      if (written !== null && !present.has(`req.${written[1]}.json`)) await fsp.rm(path.join(this.options.folder, name), { force: true });
    }
    for (const name of names) {
      if (this.seen.has(name)) continue;
      const parsed = requestName(name);
      if (parsed === undefined) continue;
      this.seen.add(name);
      await this.look(name, parsed);
    }
    await this.checkTaken(present);
  }

  private async look(file: string, name: RequestName): Promise<void> {
    const hook = this.options.hooks.get(name.agent);
    if (hook === undefined) return;
    let request: HookRequest | string;
    try {
      request = hook.request(await readRequest(this.options.folder, file));
    } catch (error) {
      // Gone already: its hook ended before this window looked (another window answered it).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      request = error instanceof Error ? error.message : String(error);
    }
    if (typeof request === 'string') {
      this.options.onError?.(new Error(`not a ${name.agent} permission request: ${request}`), file);
      return;
    }
    let seconds = this.options.waitFor(hook, request);
    if (seconds <= 0 || this.disposed) return;
    if (await acknowledge(this.options.folder, name.id, seconds)) {
      await own(this.options.folder, name.id);
    } else {
      // Taken by a window whose process is gone since (a reload): this one takes it over.
      const left = await takeOver(this.options.folder, name.id, this.now());
      if (left === undefined) return;
      seconds = left;
    }
    // The hook may have ended meanwhile: then nothing waits (what was written for it goes with the next look at the folder).
    if (!(await stillAsked(this.options.folder, name))) return;
    const now = this.now();
    const pending: PendingAnswer = { ...request, id: name.id, agent: hook.agent, since: new Date(now).toISOString(), until: now + seconds * 1000, canAllow: hook.canAllow, canDeny: hook.canDeny };
    this.taken.set(name.id, { name, pending, hook });
    this.askedEmitter.fire(pending);
    this.schedule();
  }

  /** Ends the taken requests whose hook is gone or whose time ran out. */
  private async checkTaken(present?: ReadonlySet<string>): Promise<void> {
    for (const [id, taken] of [...this.taken]) {
      const gone = present !== undefined && !present.has(`req.${id}.json`);
      if (gone || this.now() > taken.pending.until || !(await stillAsked(this.options.folder, taken.name))) this.end(id, { how: 'ended' });
    }
  }

  private end(id: string, end: AnswerEnd): void {
    const taken = this.taken.get(id);
    if (taken === undefined) return;
    this.taken.delete(id);
    this.endedEmitter.fire({ pending: taken.pending, end });
  }

  /** While requests are taken, their hooks are looked at every second (a killed hook leaves its file). */
  private schedule(): void {
    if (this.timer || this.disposed || this.taken.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.checkTaken().finally(() => this.schedule());
    }, this.options.checkMs ?? 1000);
    this.timer.unref();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
