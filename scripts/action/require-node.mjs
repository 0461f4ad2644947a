// The action runs on the `node` the runner has on PATH: refuse (exit 2) one older than
// package.json's engines before anything is installed. Plain old syntax on purpose: it must
// run, and say why, on any Node.
import { readFileSync } from 'node:fs';

const engines = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).engines.node;
const want = /^>=(\d+)\.(\d+)$/.exec(engines);
const have = /^v(\d+)\.(\d+)\./.exec(process.version);
if (!want || !have) {
  console.log('::error title=gate-check::cannot compare Node.js ' + process.version + ' with engines ' + engines);
  process.exit(2);
}
const older = Number(have[1]) < Number(want[1]) || (Number(have[1]) === Number(want[1]) && Number(have[2]) < Number(want[2]));
if (older) {
  console.log('::error title=gate-check::the action needs Node.js ' + engines.slice(2) + ' or later on PATH; found ' + process.version + ' (add actions/setup-node before it)');
  process.exit(2);
}
