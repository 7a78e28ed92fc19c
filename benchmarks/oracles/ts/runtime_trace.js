// Running a package's own test suite as a judge of TS/JS CALLS (issue 50). Two uses:
//
//   GTRACE_ROOT=/pkg GTRACE_INCLUDE=index.js,lib GTRACE_OUT=/tmp/raw \
//   NODE_OPTIONS="--require /abs/runtime_trace.js" npx mocha ...
//       every CommonJS file (and ES module, through a load hook) under GTRACE_ROOT whose
//       root-relative path starts with an entry of GTRACE_INCLUDE is instrumented as it loads
//       (runtime_instrument.js); each process, child and worker appends what it sees to
//       GTRACE_OUT (runtime_hit.js). NODE_OPTIONS carries the hook into child processes.
//   node runtime_trace.js finish ROOT RAW_DIR OUT.tsv
//       the raw rows merged: each caller position becomes the line its call starts on, and
//       OUT.tsv gets "caller file<TAB>call line<TAB>callee file<TAB>callee candidates<TAB>the
//       call's callee name" rows (the name empty where the position is no call: a getter read),
//       read by benchmarks/accuracy/ts_runtime_all.py.
'use strict';

const fs = require('fs');
const path = require('path');

// Taken now: a suite may stub `fs` (mocha's own tests stub writeFileSync and count its calls).
const { readFileSync, writeFileSync, mkdirSync, renameSync } = fs;

/**
 * `instrument`, its output kept under GTRACE_OUT/instrumented by the hash of the input: the
 * child processes a suite starts then skip loading the typescript package (about a second).
 */
function cachedInstrument(content, rel, hit) {
  const crypto = require('crypto');
  const key = crypto.createHash('sha1').update(`${rel}\0${hit}\0${content}`).digest('hex');
  const dir = path.join(process.env.GTRACE_OUT || '.', 'instrumented');
  const file = path.join(dir, `${key}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    const code = require('./runtime_instrument.js').instrument(content, rel, hit);
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
    return code;
  }
}

function hook() {
  const { includedFile } = require('./runtime_paths.js');
  const Module = require('module');
  const root = fs.realpathSync(process.env.GTRACE_ROOT);
  const include = (process.env.GTRACE_INCLUDE || '.').split(',').filter(Boolean);
  const hit = path.join(__dirname, 'runtime_hit.js');
  const compile = Module.prototype._compile;
  Module.prototype._compile = function tracedCompile(content, filename) {
    const rel = includedFile(root, include, filename);
    return compile.call(this, rel === undefined ? content : cachedInstrument(content, rel, hit), filename);
  };
  // The hooks' own thread runs this file too (NODE_OPTIONS): register them once, from the main.
  if (typeof Module.register === 'function' && require('worker_threads').isMainThread) {
    const { pathToFileURL } = require('url');
    Module.register(pathToFileURL(path.join(__dirname, 'runtime_loader.mjs')).href, {
      data: { root, include, hit },
    });
  }
}

/**
 * The call site of a raw row's frames ("file, line, column" triples): the first frame that is not
 * a class's implicit constructor, at the line its call starts on, with the callee's last name.
 */
function callerOf(frames, root, maps, callLines) {
  for (let k = 0; k + 2 < frames.length; k += 3) {
    const [file, line, column] = frames.slice(k, k + 3);
    if (!maps.has(file)) {
      const source = path.join(root, file);
      const hit = path.join(__dirname, 'runtime_hit.js');
      maps.set(file, fs.existsSync(source) ? callLines(fs.readFileSync(source, 'utf8'), file, hit) : () => undefined);
    }
    const call = maps.get(file)(Number(line), Number(column));
    if (call === undefined) return { file, line: Number(line), name: '' };
    if (call.line !== 0) return { file, line: call.line, name: call.name };
  }
  return undefined;
}

function finish(root, rawDir, out) {
  const { callLines } = require('./runtime_instrument.js');
  const maps = new Map();
  const rows = new Set();
  for (const name of fs.readdirSync(rawDir).filter((n) => /^raw-.*\.tsv$/.test(n)).sort()) {
    for (const row of fs.readFileSync(path.join(rawDir, name), 'utf8').split('\n')) {
      if (!row) continue;
      const [calleeFile, calleeNames, ...frames] = row.split('\t');
      const caller = callerOf(frames, root, maps, callLines);
      if (caller === undefined) continue;
      rows.add(`${caller.file}\t${caller.line}\t${calleeFile}\t${calleeNames}\t${caller.name}`);
    }
  }
  fs.writeFileSync(out, [...rows].sort().join('\n') + (rows.size ? '\n' : ''));
  console.log(`${rows.size} rows`);
}

if (require.main === module) {
  const [command, ...args] = process.argv.slice(2);
  if (command !== 'finish' || args.length !== 3) {
    console.error('usage: node runtime_trace.js finish ROOT RAW_DIR OUT.tsv');
    process.exit(2);
  }
  finish(...args);
} else {
  hook();
}
