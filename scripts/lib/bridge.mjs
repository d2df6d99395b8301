// A small file bridge between tests running in the extension host and the
// browser page that renders the workbench: a test drops `req-<id>.json` into the
// bridge folder, the launcher answers with `res-<id>.json`. It lets a test check
// what is really rendered in the DOM, which the extension host cannot see. A request
// with `window: n` is answered from another window of the same browser (see `pages`).
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Answers bridge requests for `page` until the returned stop function is called. `ops`
 * adds launcher-side operations: `{ name: async (request) => value }`. `page` may be a
 * function of the request's `window` (0 when absent) that returns the page to use.
 */
export function serveBridge(dir, page, ops = {}) {
  const pageFor = (request) => {
    const found = typeof page === 'function' ? page(request.window ?? 0) : request.window ? undefined : page;
    if (!found) throw new Error(`no window ${request.window}`);
    return found;
  };
  fs.mkdirSync(dir, { recursive: true });
  const busy = new Set();
  let stopped = false;
  const scan = () => {
    if (stopped) return;
    for (const name of fs.readdirSync(dir)) {
      const match = /^req-([\w-]+)\.json$/.exec(name);
      if (!match || busy.has(match[1])) continue;
      const id = match[1];
      busy.add(id);
      void answer(path.join(dir, name)).then((response) => {
        const target = path.join(dir, `res-${id}.json`);
        fs.writeFileSync(`${target}.tmp`, JSON.stringify(response));
        fs.renameSync(`${target}.tmp`, target);
        fs.rmSync(path.join(dir, name), { force: true });
        busy.delete(id);
      });
    }
  };
  // A request is answered as soon as its file appears (a test makes hundreds of requests); the
  // interval catches what a watch event may miss.
  const watcher = fs.watch(dir, () => scan());
  watcher.on('error', () => {}); // the interval goes on
  const timer = setInterval(scan, 100);

  async function answer(file) {
    try {
      const request = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (Object.hasOwn(ops, request.op)) return { ok: true, value: await ops[request.op](request) };
      const page = pageFor(request);
      switch (request.op) {
        case 'texts':
          return { ok: true, value: await page.locator(request.selector).allInnerTexts() };
        case 'attributes':
          return {
            ok: true,
            value: await page
              .locator(request.selector)
              .evaluateAll((nodes, name) => nodes.map((n) => n.getAttribute(name)), request.name),
          };
        case 'frameAttributes': {
          // Webviews are nested iframes: every frame of the page is searched.
          const values = [];
          for (const frame of page.frames()) {
            const found = await frame
              .locator(request.selector)
              .evaluateAll((nodes, name) => nodes.map((n) => n.getAttribute(name)), request.name)
              .catch(() => []);
            values.push(...found);
          }
          return { ok: true, value: values };
        }
        case 'frameClick': {
          for (const frame of page.frames()) {
            const target = frame.locator(request.selector);
            if ((await target.count().catch(() => 0)) > 0) {
              await target.first().click({ timeout: request.timeoutMs ?? 10_000 });
              return { ok: true, value: true };
            }
          }
          return { ok: false, error: `no frame holds ${request.selector}` };
        }
        case 'html':
          return { ok: true, value: await page.locator(request.selector).first().evaluate((node) => node.outerHTML) };
        case 'click': {
          const target = page.locator(request.selector, request.hasText ? { hasText: request.hasText } : {}).first();
          await target.click({ timeout: request.timeoutMs ?? 10_000 });
          return { ok: true, value: true };
        }
        case 'keys': {
          // Typed into whatever has focus (a quick pick's input, say), then `press`ed one by one.
          if (request.text) await page.keyboard.type(request.text);
          for (const key of request.press ?? []) await page.keyboard.press(key);
          return { ok: true, value: true };
        }
        case 'drag': {
          const box = await page.locator(request.selector).first().boundingBox();
          if (!box) return { ok: false, error: `nothing to drag at ${request.selector}` };
          // `edge: 'right'` grabs the element's right border (a part's resize sash).
          const x = request.edge === 'right' ? box.x + box.width + 1 : box.x + box.width / 2;
          const y = box.y + box.height / 2;
          await page.mouse.move(x, y);
          await page.mouse.down();
          await page.mouse.move(x + (request.dx ?? 0), y + (request.dy ?? 0), { steps: 8 });
          await page.mouse.up();
          await page.mouse.move(page.viewportSize()?.width ?? 800, 5); // no hover left on the sash
          return { ok: true, value: true };
        }
        case 'screenshot': {
          const target = request.selector ? page.locator(request.selector).first() : page;
          await target.screenshot({ path: request.file });
          return { ok: true, value: request.file };
        }
        default:
          return { ok: false, error: `unknown bridge op ${request.op}` };
      }
    } catch (error) {
      return { ok: false, error: String(error?.message ?? error) };
    }
  }

  return () => {
    stopped = true;
    clearInterval(timer);
    watcher.close();
  };
}
