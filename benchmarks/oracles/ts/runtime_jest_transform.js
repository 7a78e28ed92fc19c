// runtime_trace.js for suites run by jest, whose module registry compiles files itself (the
// `Module.prototype._compile` hook never sees them): a jest transformer that instruments the
// included files under GTRACE_ROOT and leaves every other file as it is. Named in the config
// given on the command line, e.g. `jest --no-cache --config '{"transform": {"\\.js$":
// "/abs/runtime_jest_transform.js"}, ...}'`, with GTRACE_ROOT / GTRACE_INCLUDE / GTRACE_OUT set.
// With options `{"then": "babel-jest"}` every file then goes through that transformer too
// (ES modules to CommonJS), told to keep lines (`retainLines`): the trace's lines stay the
// source's, though a call over two lines is then recorded at the line V8 gives.
'use strict';

const fs = require('fs');
const path = require('path');
const { instrument } = require('./runtime_instrument.js');
const { includedFile } = require('./runtime_paths.js');

const root = fs.realpathSync(process.env.GTRACE_ROOT || process.cwd());
const include = (process.env.GTRACE_INCLUDE || '.').split(',').filter(Boolean);
const hit = path.join(__dirname, 'runtime_hit.js');

function createTransformer(options = {}) {
  let then;
  if (options.then) {
    const found = require(require.resolve(options.then, { paths: [process.cwd()] }));
    const factory = found.createTransformer || (found.default && found.default.createTransformer);
    then = factory ? factory({ retainLines: true }) : found;
  }
  return {
    process(source, filename, transformOptions) {
      const rel = includedFile(root, include, filename);
      const code = rel === undefined ? source : instrument(source, rel, hit);
      return then ? then.process(code, filename, transformOptions) : { code };
    },
  };
}

module.exports = { createTransformer, ...createTransformer() };
