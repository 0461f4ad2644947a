// nodePaths and nodeModuleSpecifiers: what a node command loads as written; decodeJsonEscapes
// and JS_CONFIGURATION for the configurations whose module paths node completes (pure).
import { describe, expect, it } from 'vitest';
import { decodeJsonEscapes, JS_CONFIGURATION, nodeModuleSpecifiers, nodePaths } from '../../lib/lint/node-paths.js';
import { parseShellList } from '../../lib/lint/shell-list.js';

const first = (text: string) => parseShellList(text).items[0]!.pipeline[0]!;

describe('nodePaths', () => {
  it('the operands and the relative modules a node command loads, through wrappers; nothing for other programs', () => {
    expect(nodePaths(first('node . arg'))).toEqual(['.', 'arg']);
    expect(nodePaths(first('env FOO=1 node -r ./setup --import=../pre scripts/t'))).toEqual(['./setup', '../pre', 'scripts/t']);
    expect(nodePaths(first('node -r dotenv/config t.js'))).toEqual(['t.js']);
    expect(nodePaths(first('python3 t'))).toEqual([]);
  });
});

describe('nodeModuleSpecifiers', () => {
  it('the modules given by name, attached or after the option, and those inline code requires', () => {
    expect(nodeModuleSpecifiers(first(`node -r pkg/setup --import=#pre -e 'require("x/y")' t.js`))).toEqual(['pkg/setup', '#pre', 'x/y']);
  });
});

describe('configurations', () => {
  it('decodes \\u escapes, keeping a quote or a backslash escaped', () => {
    expect(decodeJsonEscapes('{"ext\\u0065nds": "./b\\u0061se"}')).toBe('{"extends": "./base"}');
    expect(decodeJsonEscapes('"a\\u0022b"')).toBe('"a\\"b"');
    expect(decodeJsonEscapes('plain')).toBe('plain');
  });

  it('knows the JavaScript tools’ configuration files by name', () => {
    for (const name of ['package.json', '.mocharc.yml', 'jest.config.js', 'vitest.config.mts', '.eslintrc.json', 'babel.config.js']) expect(JS_CONFIGURATION.test(name)).toBe(true);
    for (const name of ['tsconfig.json', 'Makefile', 'setup.py']) expect(JS_CONFIGURATION.test(name)).toBe(false);
  });
});
