// The scale rows of the log engine, each next to the approach it replaces (same run):
// activation over many sessions, first and on a reload (first paint of the Plan view
// against the whole load), and a long history (the newest 100 versions, and one version
// by its address, against reading it all). Used by `npm run bench` and `npm run bench:scale`.
import { count, ms, ratio } from './report.mjs';

/** Runs both measurements; resolves with the figures and their table. */
export async function benchScale(core, dir, { sessions, writes, onProgress }) {
  const load = await core.benchScaleLoad(dir, sessions, 20, onProgress);
  const history = await core.benchHistoryPage(dir, writes, onProgress);
  const heap = (mb) => (Number.isFinite(mb) ? `, +${mb.toFixed(1)} MiB heap` : '');
  const ofSessions = `${count(sessions)} sessions of 20 writes`;
  const ofWrites = `${count(writes)} writes (${(history.fileBytes / 1024 / 1024).toFixed(0)} MiB)`;
  const table = {
    key: 'scale',
    title: 'Scale: what the user waits for, next to what it waited for before (same run), ms',
    headers: ['operation', 'now', 'before', 'before ÷ now'],
    align: 'lrrr',
    rows: [
      [`first activation, ${ofSessions}: Plan view painted`, ms(load.firstPaintMs), `${ms(load.fullLoadMs)} (whole load)`, ratio(load.fullLoadMs / load.firstPaintMs)],
      [`reload (the session shown last remembered), ${ofSessions}: Plan view painted`, ms(load.reloadFirstPaintMs), `${ms(load.reloadFullLoadMs)} (whole load)`, ratio(load.reloadFullLoadMs / load.reloadFirstPaintMs)],
      [`Show History: the newest 100 versions of ${ofWrites}`, `${ms(history.newestMs)}${heap(history.newestHeapMB)}`, `${ms(history.fullMs)}${heap(history.fullHeapMB)} (whole history)`, ratio(history.fullMs / history.newestMs)],
      [`Compare: one version halfway back in ${ofWrites}`, ms(history.versionAtMs), `${ms(history.fullMs)} (whole history)`, ratio(history.fullMs / history.versionAtMs)],
    ],
    notes: [
      'Activation: store.load() over real files, to the first change event (the Plan view can paint) and to the last session in. A first activation knows nothing and must find the most recently written file (one stat per session file); a reload reads the session the view showed last (kept in VS Code\'s workspace state) before it lists the folder.',
      'History: SessionLog.page (read backwards from the end, what Show History reads) and SessionLog.versionAt (one line by its byte offset, what Compare and the diff\'s documents read), against SessionLog.history (every line, what they read before).',
      'Heap: growth of the used heap across the call, after a forced GC (node --expose-gc).',
    ],
  };
  return { figures: { load, history }, table };
}
