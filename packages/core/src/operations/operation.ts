/**
 * An operation is what a user picks in a host (n8n's Resource + Operation, a Zapier create or search, an
 * MCP tool): one meaning, defined once here. It takes the form's values as people give them and returns
 * the records every host shows, with the same fields and names. A host only translates its parameters to
 * FormValues and the result to its items (docs/architecture.md, "Host formatting steps").
 */
import type { ShortLinkClient } from '../client';
import type { FormField } from '../forms/form-fields';
import type { FormCaller, FormReader, FormValues } from '../forms/form-values';
import type { QrCodeOptions } from './qr-code/qr-code';
import type { UtmPresetsText } from '../forms/utm-rules';
import type { ConditionalSample, OperationOutput, OperationSample } from './output';

/** What running the operation does to the account, for agents and for hosts' safety hints. */
export interface OperationSafety {
  /** Reads only. */
  readOnly: boolean;
  /** May remove or overwrite what users made. */
  destructive: boolean;
  /** Repeating it with the same values leaves the account as one run does. */
  idempotent: boolean;
  /** Needs no request to the service (e.g. building a campaign URL). */
  offline?: boolean;
  /**
   * Why repeating it is safe or not, as a clause after "Safe to repeat: " or "Not safe to repeat: ", e.g.
   * "every run makes another link". `{link.findOrCreate}` names another operation as the host calls it.
   */
  repeat?: string;
}

/** A file an operation produces (a QR code image, a CSV report). */
export interface OperationFile {
  fileName: string;
  mimeType: string;
  data: Uint8Array;
  /** Which record it belongs to (index into records); undefined: the whole result. */
  recordIndex?: number;
  /**
   * How to draw the same file again from a few bytes, for hosts that hand a file on by a small pointer
   * and make it only when a later step needs it (Zapier's hydrated files).
   */
  remake?: { kind: 'qrCode'; text: string; options: QrCodeOptions };
}

export type OperationRecord = Record<string, unknown>;

export interface OperationResult {
  /** One record per row a host shows (n8n: one item each; Zapier: the object or line items). */
  records: OperationRecord[];
  /** Plain totals beside the rows (Zapier shows them as fields next to line items). */
  summary?: OperationRecord;
  files?: OperationFile[];
  /** Things the user should know that are not errors (e.g. no quota pre-flight was possible). */
  notices?: string[];
}

/** Small per-run store shared by the items of one run (n8n: an execution; Zapier: z.cache-backed). */
export interface RunCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>;
}

/** What the host knows about the run, beside the form's values. */
export interface OperationContext {
  /** IANA time zone of the workflow or the user, for dates typed without one. Default UTC. */
  timeZone?: string;
  /** Epoch ms; default Date.now. */
  now?: () => number;
  /** Where runs may keep state between items or invocations; absent: nothing is kept. */
  cache?: RunCache;
  /** How many items the run holds (n8n: the execution's items; Zapier: 1), for the plan-quota pre-flight. */
  runSize?: number;
  /**
   * How long one run may take, ms (a Zapier step: 25 000); absent: no limit but the host's Stop button.
   * An operation whose requests cannot fit refuses before sending them and says what to narrow.
   */
  timeLimitMs?: number;
  /**
   * Cancels the whole run (n8n: the execution's Stop; MCP: notifications/cancelled; a host's own timeout).
   * From the moment it fires no request is sent — no write above all; a write already sent is reconciled
   * or reported as "outcome unknown" (docs/guarantees.md, "Many callers").
   */
  signal?: AbortSignal;
  /**
   * Epoch ms by which the whole run must have ended, every request, wait, retry and lookup in it (MCP:
   * SHORTLINK_TOOL_TIMEOUT_SECONDS; Zapier: the step's budget). Nothing is sent that could not end by then.
   */
  deadlineAt?: number;
  /**
   * Hears how far a long call has come (pages read, rows done), for hosts that show progress (MCP's
   * notifications/progress). Called often; must not throw.
   */
  onProgress?: (progress: OperationProgress) => void;
  /**
   * The team's UTM presets and rules as the host keeps them with the connection (n8n: the credential's
   * "UTM Presets"; Zapier: the connection's; MCP: `utmPresets` in the server's config): text, one line
   * each (forms/utm-rules.ts). Absent: no presets, normalisation on.
   */
  utmPresets?: UtmPresetsText;
  /**
   * Who fills the form: people in a workflow (n8n, Zapier; the default) or an agent calling a tool (MCP).
   * Only the hints in messages differ ("map one from an earlier step" means nothing to an agent).
   */
  caller?: FormCaller;
}

/** How far a long call has come: `done` of `total` (when known), in the operation's words. */
export interface OperationProgress {
  done: number;
  total?: number;
  message?: string;
}

export type ResourceName = 'link' | 'stats' | 'domain' | 'account' | 'campaign' | 'report' | 'qrCode';

export interface Operation {
  /** Stable key used by every host, e.g. `link.create`. */
  key: string;
  resource: ResourceName;
  /** n8n's operation value within its resource, e.g. `create`, `findOrCreate`, `getAll`. */
  action: string;
  /** The name people see, e.g. "Create". */
  label: string;
  /** What it reads or writes, in marketing words (its first sentence is n8n's line in the dropdown). */
  description: string;
  /** What it returns, one sentence; hosts whose steps return it otherwise say so instead (exposure table). */
  returns?: string;
  safety: OperationSafety;
  fields: readonly FormField[];
  /** What it returns: the records' fields (key, label, type), the summary's, the file it may make. */
  output: OperationOutput;
  /** A result as hosts show it before a real run (Zapier's sample, an agent's example). */
  sample: OperationSample;
  /** Samples for choices of the form whose records differ (statistics per day), each under its condition. */
  samples?: readonly ConditionalSample[];
  run(client: ShortLinkClient, form: FormReader, context: OperationContext): Promise<OperationResult>;
}

export type { FormValues };
