// Reads a V8 heap snapshot (.heapsnapshot) and says what Agent Plan keeps alive in it: the
// dominator tree (weak edges ignored, as Chrome DevTools computes it), each object owned by its
// nearest dominator that is Agent Plan's (an instance of a class of the bundle, a closure of the
// bundle), grouped by feature (the source file the class or function comes
// from) and by constructor. The bundle must keep its names and module comments (esbuild without
// minify): scripts/bench/hostHeap.mjs loads such a copy for the snapshot phases.
import * as fs from 'node:fs';

/** Source files of the bundle (esbuild's `// src/…` comments) → a feature's name. */
const FEATURES = [
  [/^src\/core\/derived\/snapshotTrigger|^src\/node\/snapshotRecorder|^src\/core\/log\/snapshotRecord|^src\/node\/gitSnapshots|^src\/node\/gitRunner/, 'snapshot recorder'],
  [/^src\/vscode\/review\/|^src\/node\/itemChangesReader|^src\/core\/derived\/itemChanges/, 'review'],
  [/ledger/i, 'ledger'],
  [/^src\/core\/derived\/health|^src\/vscode\/healthWatch/, 'health'],
  [/needsYou/, 'needs-you'],
  [/^src\/agents\/|^src\/vscode\/sources|^src\/core\/foreign/, "the agents' followers"],
  [/^src\/core\/generated\/|^node_modules\/ajv/, 'the generated tables'],
  [/^src\/core\/log\/|^src\/node\/logWatcher|^src\/node\/nodeFileSystem|^src\/node\/lockOwner|^src\/node\/sharedStorage/, 'session log (reader, sink, locks)'],
  [/^src\/core\/plan\/store|^src\/core\/plan\/display/, 'plan store and display'],
  [/^src\/core\/derived\/requests|^src\/core\/derived\/itemFiles/, 'requests and files books'],
  [/^src\/core\/timeline\/|^src\/vscode\/timeline\//, 'timeline'],
  [/^src\/vscode\/sessions\/|^src\/vscode\/plan\/|^src\/vscode\/views|^src\/vscode\/statusBar|^src\/vscode\/viewMemory|^src\/vscode\/agentLooks/, 'views and status bar'],
  [/^src\/vscode\/commands\/|^src\/vscode\/api|^src\/vscode\/todoTool|^src\/vscode\/ids|^src\/vscode\/log|^src\/extension/, 'commands, tool and API'],
  [/^src\/node\/folderWatch|^src\/node\/followedFolders|^src\/node\/regularFile|^src\/node\/eventSupport|^src\/vscode\/workspaceFolders|^src\/core\/worktrees\//, 'followed folders and worktrees'],
  [/^src\/core\/plan\/|^src\/core\/text\/|^src\/core\/json/, 'plan model and texts'],
  [/^src\/core\/derived\//, 'other derived books'],
  [/^src\/core\/emitter/, 'events'],
];

export function featureOf(module) {
  if (!module) return 'other (Agent Plan)';
  for (const [pattern, name] of FEATURES) if (pattern.test(module)) return name;
  return `other: ${module.split('/').slice(0, 3).join('/')}`;
}

/** The bundle's modules by line (esbuild's `// src/x.ts` comments) and its classes' modules. */
export function bundleMap(bundleText) {
  const lines = bundleText.split('\n');
  const starts = [];
  const classes = new Map();
  let current;
  lines.forEach((line, index) => {
    const comment = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line);
    if (comment) {
      current = comment[1];
      starts.push([index, current]);
    }
    const cls = /^var ([A-Za-z_$][\w$]*) = class\b/.exec(line);
    if (cls && current) classes.set(cls[1], current);
  });
  const moduleAt = (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid][0] <= line) {
        found = starts[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  return { moduleAt, classes };
}

/**
 * Groups what the snapshot's Agent Plan owns. `scriptIds`: the inspector's ids of the bundle's
 * script (closures carry them). Returns { totalBytes, ours: { feature: { bytes, code, byConstructor } }, others: Map(constructor → bytes) }.
 */
export function analyzeSnapshot(file, { bundleText, scriptIds }) {
  const snapshot = JSON.parse(fs.readFileSync(file, 'utf8'));
  const meta = snapshot.snapshot.meta;
  const nodeFields = meta.node_fields;
  const N = nodeFields.length;
  const E = meta.edge_fields.length;
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const { nodes, edges, strings } = snapshot;
  const count = nodes.length / N;
  const typeAt = nodeFields.indexOf('type');
  const nameAt = nodeFields.indexOf('name');
  const sizeAt = nodeFields.indexOf('self_size');
  const edgeCountAt = nodeFields.indexOf('edge_count');
  const edgeTypeAt = meta.edge_fields.indexOf('type');
  const edgeToAt = meta.edge_fields.indexOf('to_node');
  const WEAK = edgeTypes.indexOf('weak');
  const SHORTCUT = edgeTypes.indexOf('shortcut');
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * N + edgeCountAt] * E;
    firstEdge[i + 1] = e;
  }
  const type = (i) => nodeTypes[nodes[i * N + typeAt]];
  const name = (i) => strings[nodes[i * N + nameAt]];
  const selfSize = (i) => nodes[i * N + sizeAt];

  // Post-order DFS from the root (node 0) over strong edges, then Cooper–Harvey–Kennedy.
  const order = new Int32Array(count).fill(-1);
  const post = new Uint32Array(count);
  let visited = 0;
  {
    const stack = new Uint32Array(count);
    const edgeCursor = new Uint32Array(count);
    const seen = new Uint8Array(count);
    let top = 0;
    stack[top++] = 0;
    seen[0] = 1;
    edgeCursor[0] = firstEdge[0];
    while (top > 0) {
      const n = stack[top - 1];
      let pushed = false;
      while (edgeCursor[n] < firstEdge[n + 1]) {
        const e = edgeCursor[n];
        edgeCursor[n] += E;
        const et = edges[e + edgeTypeAt];
        if (et === WEAK || et === SHORTCUT) continue;
        const to = edges[e + edgeToAt] / N;
        if (seen[to]) continue;
        seen[to] = 1;
        edgeCursor[to] = firstEdge[to];
        stack[top++] = to;
        pushed = true;
        break;
      }
      if (!pushed) {
        top--;
        order[n] = visited;
        post[visited++] = n;
      }
    }
  }
  // Predecessors (strong edges, reachable nodes only).
  const predCount = new Uint32Array(count + 1);
  for (let n = 0; n < count; n++) {
    if (order[n] < 0) continue;
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += E) {
      const et = edges[e + edgeTypeAt];
      if (et === WEAK || et === SHORTCUT) continue;
      predCount[edges[e + edgeToAt] / N + 1]++;
    }
  }
  for (let i = 0; i < count; i++) predCount[i + 1] += predCount[i];
  const preds = new Uint32Array(predCount[count]);
  const fill = predCount.slice(0, count);
  for (let n = 0; n < count; n++) {
    if (order[n] < 0) continue;
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += E) {
      const et = edges[e + edgeTypeAt];
      if (et === WEAK || et === SHORTCUT) continue;
      const to = edges[e + edgeToAt] / N;
      preds[fill[to]++] = n;
    }
  }
  const UNDEF = -1;
  const idom = new Int32Array(count).fill(UNDEF); // by post-order number
  const rootPo = order[0];
  idom[rootPo] = rootPo;
  const intersect = (a, b) => {
    while (a !== b) {
      while (a < b) a = idom[a];
      while (b < a) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let po = visited - 2; po >= 0; po--) {
      const n = post[po];
      let d = UNDEF;
      for (let p = predCount[n]; p < predCount[n + 1]; p++) {
        const q = order[preds[p]];
        if (q < 0 || idom[q] === UNDEF) continue;
        d = d === UNDEF ? q : intersect(q, d);
      }
      if (d !== UNDEF && idom[po] !== d) {
        idom[po] = d;
        changed = true;
      }
    }
  }

  // Who is Agent Plan's: its script, closures in it, instances of its classes.
  const { moduleAt, classes } = bundleMap(bundleText);
  const ids = new Set((scriptIds ?? []).map(Number));
  const closureModule = new Map();
  const L = meta.location_fields?.length ?? 4;
  const locs = snapshot.locations ?? [];
  for (let i = 0; i < locs.length; i += L) {
    if (!ids.has(locs[i + 1])) continue;
    closureModule.set(locs[i] / N, moduleAt(locs[i + 2]) ?? '(bundle prologue)');
  }
  const ownerLabel = new Array(count);
  for (let n = 0; n < count; n++) {
    if (order[n] < 0) continue;
    const t = type(n);
    if (t === 'closure' && closureModule.has(n)) ownerLabel[n] = featureOf(closureModule.get(n));
    else if (t === 'object' && classes.has(name(n))) ownerLabel[n] = featureOf(classes.get(name(n)));
  }
  // Top-down over the dominator tree (reverse post-order visits a dominator before what it dominates).
  const label = new Array(count);
  const isCode = (n) => {
    const t = type(n);
    return t === 'code' || (t === 'hidden' && /^system \/ (SharedFunctionInfo|FeedbackVector|FeedbackMetadata|ScopeInfo|BytecodeArray|ClosureFeedbackCellArray)/.test(name(n)));
  };
  const ours = {};
  const others = new Map();
  let totalBytes = 0;
  for (let po = visited - 1; po >= 0; po--) {
    const n = post[po];
    const size = selfSize(n);
    totalBytes += size;
    const own = ownerLabel[n] ?? (po === rootPo ? undefined : label[post[idom[po]]]);
    label[n] = own;
    const ctor = type(n) === 'object' || type(n) === 'closure' ? name(n) : `(${type(n)}${type(n) === 'hidden' || type(n) === 'code' ? `: ${name(n)}` : ''})`;
    if (own === undefined) {
      others.set(ctor, (others.get(ctor) ?? 0) + size);
      continue;
    }
    const group = (ours[own] ??= { bytes: 0, code: 0, byConstructor: {} });
    group.bytes += size;
    if (isCode(n)) group.code += size;
    group.byConstructor[ctor] = (group.byConstructor[ctor] ?? 0) + size;
  }
  return { totalBytes, nodes: count, ours, others };
}
