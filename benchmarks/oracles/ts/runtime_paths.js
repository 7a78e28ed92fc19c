// Which files runtime_trace.js instruments (kept apart from runtime_instrument.js so that the
// hook decides without loading the typescript package).
'use strict';

const path = require('path');

/** `filename`'s path relative to `root` when an `include` entry holds it (not node_modules). */
function includedFile(root, include, filename) {
  const rel = path.relative(root, filename).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split('/').includes('node_modules')) return undefined;
  return include.some((entry) => entry === '.' || rel === entry || rel.startsWith(entry + '/')) ? rel : undefined;
}

module.exports = { includedFile };
