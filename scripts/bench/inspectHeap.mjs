// Reads the heap of a Node process through its inspector port (the extension host started
// with --inspect=<port>): forced garbage collections, then the used heap; optionally a heap
// snapshot written to a file. Run with a Node that has a global WebSocket (the host's Node 24):
//   node inspectHeap.mjs <port> <result.json> [snapshot.heapsnapshot]
// Writes { usedBytes, totalBytes, reads: [usedBytes…], snapshot? } to result.json.
import * as fs from 'node:fs';

const [port, resultFile, snapshotFile] = process.argv.slice(2);

async function target() {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      const url = list.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no inspector on port ${port} within 30 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function connect(url) {
  const socket = new WebSocket(url);
  let next = 1;
  const pending = new Map();
  const listeners = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id !== undefined) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(`${message.error.message} (${message.error.code})`));
      else waiting?.resolve(message.result);
    } else {
      listeners.get(message.method)?.(message.params);
    }
  });
  const opened = new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error(`could not connect to ${url}`)), { once: true });
  });
  return {
    opened,
    on: (method, listener) => listeners.set(method, listener),
    send(method, params = {}) {
      const id = next++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    close: () => socket.close(),
  };
}

const session = connect(await target());
await session.opened;
// Three reads, each after three forced collections (the second and third let weak callbacks and
// finalizers that the first one queued run); the smallest is the figure.
const reads = [];
for (let i = 0; i < 3; i++) {
  for (let j = 0; j < 3; j++) {
    await session.send('HeapProfiler.collectGarbage');
    await new Promise((r) => setTimeout(r, 200));
  }
  const usage = await session.send('Runtime.getHeapUsage');
  reads.push({ used: usage.usedSize, total: usage.totalSize });
}
const least = reads.reduce((a, b) => (b.used < a.used ? b : a));
const result = { usedBytes: least.used, totalBytes: least.total, reads: reads.map((r) => r.used) };
if (snapshotFile) {
  // Which script is which: the snapshot names closures by script id only.
  const scripts = {};
  session.on('Debugger.scriptParsed', (p) => {
    if (p.url) scripts[p.scriptId] = p.url;
  });
  await session.send('Debugger.enable');
  await session.send('Debugger.disable');
  const out = fs.openSync(snapshotFile, 'w');
  session.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => fs.writeSync(out, chunk));
  await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false });
  fs.closeSync(out);
  result.snapshot = snapshotFile;
  result.scripts = scripts;
}
session.close();
fs.writeFileSync(resultFile, JSON.stringify(result));
