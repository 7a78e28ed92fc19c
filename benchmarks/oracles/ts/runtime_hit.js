// The receiving end of `__gtrace("ID")` (runtime_instrument.js): reads the frame of the traced
// function's caller and appends "ID<TAB>caller file<TAB>line<TAB>column" to
// GTRACE_OUT/raw-<pid>-<thread>.tsv the first time this process sees that row. A caller that is a
// constructor may be a class's implicit one (`class B extends A {}`: `new B()` runs A's
// constructor from B's), so the frames above it follow on the row, up to the first that is not
// a constructor; `finish` (runtime_trace.js) picks the one a call site names. Appending at once
// (not at exit) lets it work in child processes, workers and jest's sandboxes alike. Callers
// outside GTRACE_ROOT, or inside a node_modules folder, are not recorded.
'use strict';

const fs = require('fs');
const path = require('path');
const { threadId } = require('worker_threads');
const { fileURLToPath } = require('url');

const ROOT = fs.realpathSync(process.env.GTRACE_ROOT || process.cwd());
const OUT = path.join(process.env.GTRACE_OUT || '.', `raw-${process.pid}-${threadId}.tsv`);
// Taken now, and a descriptor written to directly: a suite may stub `fs` (mocha's own tests stub
// writeFileSync, which appendFileSync calls, and count its calls).
const { openSync, writeSync } = fs;
let out;
const MORE_FRAMES = 4;
const seen = new Set();
const asCallsites = (_error, callsites) => callsites;

function relativeFile(name) {
  if (!name) return undefined;
  const file = name.startsWith('file:') ? fileURLToPath(name) : name;
  if (!path.isAbsolute(file)) return undefined; // node:internal/..., eval code
  const rel = path.relative(ROOT, file);
  if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep).includes('node_modules')) {
    return undefined;
  }
  return rel.split(path.sep).join('/');
}

function hit(id) {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  Error.prepareStackTrace = asCallsites;
  Error.stackTraceLimit = 3 + MORE_FRAMES;
  const holder = {};
  Error.captureStackTrace(holder, hit);
  const frames = holder.stack;
  Error.prepareStackTrace = prepare;
  Error.stackTraceLimit = limit;
  // frames: the file's `__gtrace`, the traced function, its caller
  if (!Array.isArray(frames) || frames.length < 3) return;
  let row = id;
  for (let k = 2; k < frames.length; k++) {
    const file = relativeFile(frames[k].getFileName());
    if (file === undefined) break;
    row += `\t${file}\t${frames[k].getLineNumber()}\t${frames[k].getColumnNumber()}`;
    if (!frames[k].isConstructor()) break;
  }
  if (row === id) return;
  if (seen.has(row)) return;
  seen.add(row);
  if (out === undefined) out = openSync(OUT, 'a');
  writeSync(out, row + '\n');
}

module.exports = hit;
