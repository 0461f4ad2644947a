'use strict';
// Loads dist/status.cjs, dist/hook.cjs or dist/run.cjs (the fast builds, lib/cli/route.ts)
// with the V8 code cache that the build made beside each (scripts/code-cache.mjs). With the
// cache, V8 neither parses nor compiles the functions a command needs: about 6 ms of every
// call. A cache that V8 rejects (another Node version, other V8 flags) only costs that time.
//
// The cache is code, like dist/*.js: it is written by the build, in the same directory swap,
// and read only here. V8 checks a cache against the source's length only, and runs the cached
// bytecode of functions whose source changed. So the cache file holds an exact copy of the
// source it was made from, compared byte for byte (a memcmp: microseconds) before V8 is given
// the cache: after any edit of the .cjs file, the cache is not used.
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const DIST = join(__dirname, '..', 'dist');
const MAGIC = 'gate-check code cache 1 ';

/** The cache file: a header line with the source's length in bytes, the source, V8's data. */
function cacheFile(source, data) {
  return Buffer.concat([Buffer.from(`${MAGIC}${source.length}\n`, 'latin1'), source, data]);
}

/** V8's data from the cache file, if it was made from exactly `source` (bytes); else undefined. */
function cacheFor(source, file) {
  let cache;
  try {
    cache = readFileSync(`${file}.cache`);
  } catch {
    return undefined;
  }
  const header = `${MAGIC}${source.length}\n`;
  if (cache.length <= header.length + source.length || cache.toString('latin1', 0, header.length) !== header) return undefined;
  const start = header.length;
  return cache.subarray(start, start + source.length).equals(source) ? cache.subarray(start + source.length) : undefined;
}

/** The same wrapper as Node's own for CommonJS, on the first line so that line numbers hold. */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/**
 * Compiles and runs dist/NAME.cjs; returns its exports, the Script (for the build, which asks
 * it for its cache once the commands have run) and the source bytes.
 */
function loadFast(name, { dist = DIST, useCache = true } = {}) {
  const file = join(dist, `${name}.cjs`);
  const source = readFileSync(file);
  const cachedData = useCache ? cacheFor(source, file) : undefined;
  const script = new Script(wrap(source.toString('utf8')), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script, source, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

module.exports = { loadFast, cacheFile };
