/**
 * The description of one field of an operation's form, written once in the core. Hosts generate their
 * own field definitions from it (n8n properties, Zapier inputFields, MCP input schemas) or are checked
 * against it, so a label, a help text or a rule never differs between them.
 */

/** What a field holds, in the words of a form (each host maps it to its own widget). */
export type FieldKind =
  | 'text' // one line of text
  | 'url' // an absolute http(s) URL
  | 'number'
  | 'boolean'
  | 'choice' // one of `choices`
  | 'dateTime' // a date and time as typed; read with the run's time zone
  | 'date' // a calendar day, YYYY-MM-DD
  | 'link' // a link of the account: its id or its short URL
  | 'domain' // a custom domain's hostname; empty means the default domain
  | 'list' // several values (`listOf` says of what)
  | 'password';

/** Where a host places the field: main fields first, UTM fields together, the rest under "Options". */
export type FieldGroup = 'main' | 'utm' | 'options';

export interface FieldChoice {
  value: string;
  label: string;
  help?: string;
}

export interface FormField {
  /** The key of the value in FormValues, the same on every host (e.g. `targetUrl`, `utmCampaign`). */
  key: string;
  /** The label people see, e.g. "Target URL". Errors name the field by this label. */
  label: string;
  kind: FieldKind;
  /** Help text in marketing words. */
  help: string;
  /**
   * The help for an agent calling the operation as a tool (MCP's input schema), where `help` speaks of a
   * workflow or of a host's widgets; absent: `help` says it for both.
   */
  agentHelp?: string;
  group?: FieldGroup;
  required?: boolean;
  placeholder?: string;
  default?: string | number | boolean;
  choices?: readonly FieldChoice[];
  /** Bounds of a number field (inclusive). */
  min?: number;
  max?: number;
  /** For `list` fields: what each entry is. */
  listOf?: 'link' | 'number' | 'text';
  /**
   * Means something only when one run holds many rows (an n8n execution's items), like what to do when the
   * plan's quota cannot take them all. Hosts whose runs are one row (a Zapier step, an agent's call) leave
   * it out rather than show a choice that changes nothing.
   */
  manyRowsOnly?: boolean;
}

/** The fields a host whose every run is one row shows (see FormField.manyRowsOnly). */
export function singleRowFields(fields: readonly FormField[]): FormField[] {
  return fields.filter((field) => field.manyRowsOnly !== true);
}
