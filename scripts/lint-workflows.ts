/** `npm run lint:workflows`: actionlint over every file in .github/workflows; any finding fails. */
import { relative, resolve } from 'node:path';
import { formatFinding, lintWorkflowFiles, workflowFiles } from './workflows/lint';

const root = resolve(__dirname, '..');

async function main(): Promise<void> {
  const files = workflowFiles(root);
  if (files.length === 0) throw new Error('no workflow in .github/workflows');
  const findings = await lintWorkflowFiles(files);
  for (const finding of findings) console.error(formatFinding({ ...finding, file: relative(root, finding.file) }));
  if (findings.length > 0) {
    console.error(`\nactionlint: ${findings.length} finding(s) in ${files.length} workflow(s).`);
    process.exit(1);
  }
  console.log(`actionlint: ${files.length} workflow(s) clean (${files.map((f) => relative(root, f)).join(', ')}).`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
