/**
 * Two prompts for the marketer's usual jobs, offered by clients as ready commands (Claude Desktop's "+"
 * menu, VS Code's /mcp.shortlink…): shorten a campaign's URLs without ever making a link twice, and last
 * week's campaign report. Each is a user message that names the tools and their fields as the tool list
 * does (the names come from the same functions), so a renamed tool or field cannot leave a prompt behind.
 */
import { ErrorCode, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { operationByKey } from '@shortlink/core/operations';
import { protocolError } from './tool-error';
import { toolNameOf } from './tools';

interface PromptArgument {
  name: string;
  description: string;
  required?: boolean;
}

interface ShortLinkPrompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  text(args: Record<string, string>): string;
}

const FIND_OR_CREATE = toolNameOf(operationByKey('link.findOrCreate'));
const REPORT = toolNameOf(operationByKey('report.campaign'));

function utmLine(args: Record<string, string>): string {
  const utm = [`utmCampaign "${args.campaign}"`];
  if (args.source) utm.push(`utmSource "${args.source}"`);
  if (args.medium) utm.push(`utmMedium "${args.medium}"`);
  return utm.join(', ');
}

export const PROMPTS: readonly ShortLinkPrompt[] = [
  {
    name: 'shorten_campaign_links',
    title: 'Shorten a Campaign Sheet',
    description: 'Short links with UTM parameters for a list of URLs (one campaign), safe to run again: a URL that already has its link gets the same one back.',
    arguments: [
      { name: 'campaign', description: 'The utm_campaign, e.g. spring_sale.', required: true },
      { name: 'urls', description: 'The pages to link to, one per line (pasted from a sheet column).', required: true },
      { name: 'source', description: 'The utm_source, e.g. newsletter (optional).' },
      { name: 'medium', description: 'The utm_medium, e.g. email (optional).' },
    ],
    text: (args) =>
      [
        `Make short links for the campaign "${args.campaign}". For each URL below, call ${FIND_OR_CREATE} with targetUrl set to the URL and ${utmLine(args)}.`,
        `${FIND_OR_CREATE} returns the link a URL already has, so repeating a row makes no second link; do not use link_create.`,
        'If a call fails, keep going with the next URL and list the failures with the error text at the end.',
        'Then answer with a table of three columns: URL, short URL, and whether the link was new or already there.',
        '',
        'URLs:',
        args.urls,
      ].join('\n'),
  },
  {
    name: 'weekly_campaign_report',
    title: "Last Week's Campaign Report",
    description: 'The clicks of one campaign over the last 7 complete days, per link and day, with a short summary.',
    arguments: [{ name: 'campaign', description: 'The utm_campaign of the links, exactly as in their target URLs, e.g. spring_sale.', required: true }],
    text: (args) =>
      [
        `Call ${REPORT} with selectBy "campaign", campaign "${args.campaign}" and shape "linkDay"; leave from and to empty (the last 7 complete days).`,
        'Then summarise: the total clicks, the three links with the most clicks (short URL and target URL), and the best day.',
        'Show the rows as a table (date, short URL, clicks). If the report has no rows, say that the campaign had no clicks in those days and name the days.',
      ].join('\n'),
  },
];

export function promptResult(name: string, args: Record<string, string>): GetPromptResult {
  const prompt = PROMPTS.find((candidate) => candidate.name === name);
  if (!prompt) throw protocolError(ErrorCode.InvalidParams, `Unknown prompt "${name.slice(0, 60)}". The prompts are: ${PROMPTS.map((p) => p.name).join(', ')}.`);
  const missing = prompt.arguments.filter((argument) => argument.required && !(args[argument.name] ?? '').trim()).map((argument) => argument.name);
  if (missing.length > 0) throw protocolError(ErrorCode.InvalidParams, `The prompt ${prompt.name} needs ${missing.join(' and ')}.`);
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }] };
}
