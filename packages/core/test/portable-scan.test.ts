/**
 * What `@shortlink/core/portable` reaches must pass n8n's community-package scanner: no process, timers,
 * global object, __dirname, fs or axios. The check bundles the entry with esbuild (exactly what the n8n
 * package ships) and looks at every identifier token (comments and strings do not count).
 */
import { buildSync } from 'esbuild';
import path from 'node:path';
import ts from 'typescript';

const FORBIDDEN = ['process', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'globalThis', '__dirname', '__filename', 'require'];
const SRC = path.resolve(__dirname, '../src');
/** Registry packages bundled on purpose: the QR encoder and its deflate (their licences ship with the n8n package). */
const BUNDLED = ['node_modules/uqr/', 'node_modules/fflate/'];
const isBundledOnPurpose = (input: string) => BUNDLED.some((name) => input.includes(name));

function bundle(entry: string) {
  const result = buildSync({
    entryPoints: [path.join(SRC, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    metafile: true,
    logLevel: 'silent',
    mainFields: ['module', 'main'],
    external: ['axios', 'fs', 'node:*'],
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile!.inputs), imports: result.metafile!.outputs };
}

/** Every identifier in the bundle, from a real parse (a bare scanner misreads regular expressions). */
function identifiers(code: string): Set<string> {
  const source = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) found.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function violations(entry: string): string[] {
  const { code, inputs, imports } = bundle(entry);
  const ids = identifiers(code);
  const found = FORBIDDEN.filter((name) => ids.has(name));
  const external = Object.values(imports).flatMap((o) => o.imports.map((i) => i.path));
  return [...found, ...external.map((p) => `import ${p}`), ...inputs.filter((i) => i.includes('node_modules') && !isBundledOnPurpose(i)).map((i) => `reaches ${i}`)];
}

describe('portable entry', () => {
  test('reaches none of the names n8n rejects, and only the core sources', () => {
    expect(violations('portable.ts')).toEqual([]);
    const { inputs } = bundle('portable.ts');
    expect(inputs.every((i) => i.startsWith('packages/core/src/') || i.includes('/packages/core/src/') || isBundledOnPurpose(i))).toBe(true);
    expect(inputs.some((i) => i.includes('standalone'))).toBe(false);
  });

  test('the scan does catch them (the standalone entry uses timers and axios)', () => {
    expect(violations('index.ts')).toEqual(expect.arrayContaining(['setTimeout', 'import axios']));
  });
});
