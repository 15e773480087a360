/**
 * `npm run check:live`: runs the API's operations against a real account and prints, as a table, every
 * place where the live service differs from openapi/short-link-api.yaml and docs/api-contract.md.
 *
 *   SHORTLINK_BASE_URL=https://short.example.com SHORTLINK_API_KEY=... npm run check:live [-- --write]
 *
 * Read-only unless --write is given; --write also creates, updates and deletes one throwaway link.
 * Last comes one line naming the choices the service made where the spec is silent (paging form, largest
 * page, parameter names, update and delete answers, record fields, the wrong-key status), made by the
 * core's own client (check-live/service-choices.ts), for the user to send back.
 * Exit code: 0 no differences, 1 differences, 2 wrong usage. The API key is never printed.
 */
import { parseArgs } from 'node:util';
import { runLiveCheck, type LiveCheckReport } from './check-live/checks';

const USAGE = `Usage: SHORTLINK_BASE_URL=<url> SHORTLINK_API_KEY=<key> npm run check:live [-- --write]
  SHORTLINK_BASE_URL   the service, e.g. https://short.example.com (with or without /api/v1)
  SHORTLINK_API_KEY    an API key of an account on the business plan or higher
  --write              also create, update and delete one throwaway link`;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderReport(report: LiveCheckReport, baseUrl: string, write: boolean): string {
  const lines = [
    `Live check of ${baseUrl} (${write ? 'read and write: one throwaway link created, updated and deleted' : 'read-only; --write also creates, updates and deletes one throwaway link'})`,
    `${report.checks.length} checks against openapi/short-link-api.yaml and docs/api-contract.md.`,
  ];
  if (report.skipped.length > 0) lines.push(`Not checked: ${report.skipped.join('; ')}.`);
  if (report.differences.length === 0) {
    lines.push('No differences from docs/api-contract.md and openapi/short-link-api.yaml.');
  } else {
    lines.push(`${report.differences.length} difference${report.differences.length === 1 ? '' : 's'}:`, '');
    lines.push('| # | Check | Expected (document) | Live service |', '|---|---|---|---|');
    report.differences.forEach((difference, index) => {
      lines.push(`| ${index + 1} | ${cell(difference.check)} | ${cell(difference.expected)} | ${cell(difference.actual)} |`);
    });
  }
  lines.push(
    '',
    'Which choices the service made where the spec is silent (docs/api-contract.md, "Where the service may differ").',
    'Please send this line back to the maintainers:',
    '',
    report.choices.line,
  );
  if (report.choices.notes.length > 0) lines.push('', ...report.choices.notes.map((note) => `Note: ${note}`));
  return lines.join('\n');
}

async function main(): Promise<number> {
  let write = false;
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options: { write: { type: 'boolean' }, help: { type: 'boolean' } }, strict: true });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    write = values.write === true;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const baseUrl = (process.env.SHORTLINK_BASE_URL ?? '').trim();
  const apiKey = (process.env.SHORTLINK_API_KEY ?? '').trim();
  const missing = [!baseUrl && 'SHORTLINK_BASE_URL', !apiKey && 'SHORTLINK_API_KEY'].filter(Boolean);
  if (missing.length > 0) {
    console.error(`${missing.join(' and ')} must be set.\n\n${USAGE}`);
    return 2;
  }
  if (!/^https?:\/\/\S+$/i.test(baseUrl)) {
    console.error(`SHORTLINK_BASE_URL must be an http(s) URL such as https://short.example.com; got "${baseUrl}".`);
    return 2;
  }
  const report = await runLiveCheck({ baseUrl, apiKey, write });
  // A service that echoes the key (in a problem detail, say) must not get it printed.
  console.log(renderReport(report, baseUrl, write).split(apiKey).join('***'));
  return report.differences.length === 0 ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(`The live check failed: ${error.message}`);
      process.exit(2);
    },
  );
}
