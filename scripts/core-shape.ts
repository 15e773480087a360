/**
 * The shape of the core, for the notes of issue 25 and anyone checking that it stays walkable:
 *   npx tsx scripts/core-shape.ts [core src folder]
 * prints the hand-written files (and those loose at the top), the longest file and functions, and the
 * names each entry point exports.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const src = resolve(process.argv[2] ?? join(__dirname, '..', 'packages', 'core', 'src'));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : files(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function functionLengths(path: string): { name: string; lines: number }[] {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as { name?: ts.Node }).name;
      const name = named ? named.getText() : ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : '(anonymous)';
      found.push({ name: `${relative(src, path)}:${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function exportedNames(entry: string): number {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!);
  return symbol ? checker.getExportsOfModule(symbol).length : 0;
}

const all = files(src);
const loose = all.filter((path) => relative(src, path).indexOf('/') === -1);
const lengths = all.map((path) => ({ path: relative(src, path), lines: readFileSync(path, 'utf8').split('\n').length })).sort((a, b) => b.lines - a.lines);
const functions = all.flatMap(functionLengths).sort((a, b) => b.lines - a.lines);
console.log(`hand-written files: ${all.length}; loose at the top of src: ${loose.length} (${loose.map((p) => relative(src, p)).join(', ')})`);
console.log(`longest files: ${lengths.slice(0, 3).map((f) => `${f.path} ${f.lines}`).join(', ')}`);
console.log(`longest functions: ${functions.slice(0, 5).map((f) => `${f.name} ${f.lines}`).join(', ')}`);
for (const entry of ['index.ts', 'portable.ts', 'faces/operations.ts', 'faces/host.ts']) console.log(`names exported by ${entry}: ${exportedNames(join(src, entry))}`);
