// ES-module half of runtime_trace.js: a `load` hook (module.register) that instruments the
// source of every included ES module under the root, as the CommonJS hook does.
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let settings;

export function initialize(data) {
  settings = data;
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!settings || result.format !== 'module' || !url.startsWith('file:')) return result;
  const { instrument } = require('./runtime_instrument.js');
  const { includedFile } = require('./runtime_paths.js');
  const rel = includedFile(settings.root, settings.include, fileURLToPath(url));
  if (rel === undefined) return result;
  const source = typeof result.source === 'string' ? result.source : Buffer.from(result.source).toString('utf8');
  return { ...result, source: instrument(source, rel, settings.hit, true) };
}
