/**
 * Preloaded into a child (`node -r`): on every thread, each file the first time it is loaded is appended to
 * `<LOADED_MODULES_DIR>/<threadId>.txt`, one path a line (a worker thread inherits the preload; its end by
 * terminate() runs no exit handler, so nothing waits for one).
 */
const { appendFileSync } = require('node:fs');
const { join } = require('node:path');
const Module = require('node:module');
const { threadId } = require('node:worker_threads');

const dir = process.env.LOADED_MODULES_DIR;
if (dir) {
  const seen = new Set();
  const file = join(dir, `${threadId}.txt`);
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    const exported = load.apply(this, arguments);
    try {
      const path = Module._resolveFilename(request, parent, isMain);
      if (!seen.has(path)) {
        seen.add(path);
        appendFileSync(file, `${path}\n`);
      }
    } catch {
      // a built-in or an unresolvable name: not a file
    }
    return exported;
  };
}
