'use strict';
// Loads dist/status.cjs or dist/hook.cjs (the builds for --status and the Stop hook,
// lib/cli/route.ts) with the V8 code cache that the build made beside it
// (scripts/code-cache.mjs). With the cache, V8 neither
// parses nor compiles the functions that a status needs: about 6 ms of every call. A cache
// that V8 rejects (another Node version, other V8 flags) only costs that time back.
//
// The cache is code, like dist/*.js: it is written by the build, in the same directory swap,
// and read only here. V8 checks a cache against the source's length only, so each build ends
// the file with a random build id and the cache starts with the same id: a cache left beside
// a rebuilt or edited file is not used.
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const DIST = join(__dirname, '..', 'dist');
const ID = /\n\/\/# gate-check-build=([0-9a-f]{32})\n$/;

/** The same wrapper as Node's own for CommonJS, on the first line so that line numbers hold. */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

function cacheFor(source, file) {
  const id = ID.exec(source.slice(-64))?.[1];
  if (id === undefined) return undefined;
  let data;
  try {
    data = readFileSync(`${file}.cache`);
  } catch {
    return undefined;
  }
  return data.length > 33 && data.toString('latin1', 0, 33) === `${id}\n` ? data.subarray(33) : undefined;
}

/**
 * Compiles and runs dist/NAME.cjs; returns its exports, and the Script (for the build, which asks it
 * for its cache once a status has run).
 */
function loadFast(name, { dist = DIST, useCache = true } = {}) {
  const file = join(dist, `${name}.cjs`);
  const source = readFileSync(file, 'utf8');
  const cachedData = useCache ? cacheFor(source, file) : undefined;
  const script = new Script(wrap(source), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

module.exports = { loadFast, ID };
