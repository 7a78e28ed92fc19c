// runtime_trace.js for suites run by jest, whose module registry compiles files itself (the
// `Module.prototype._compile` hook never sees them): a jest transformer that instruments the
// included files under GTRACE_ROOT and leaves every other file as it is. Named in the config
// given on the command line, e.g. `jest --no-cache --config '{"transform": {"\\.js$":
// "/abs/runtime_jest_transform.js"}, ...}'`, with GTRACE_ROOT / GTRACE_INCLUDE / GTRACE_OUT set.
'use strict';

const fs = require('fs');
const path = require('path');
const { instrument } = require('./runtime_instrument.js');
const { includedFile } = require('./runtime_paths.js');

const root = fs.realpathSync(process.env.GTRACE_ROOT || process.cwd());
const include = (process.env.GTRACE_INCLUDE || '.').split(',').filter(Boolean);
const hit = path.join(__dirname, 'runtime_hit.js');

module.exports = {
  process(source, filename) {
    const rel = includedFile(root, include, filename);
    return { code: rel === undefined ? source : instrument(source, rel, hit) };
  },
};
