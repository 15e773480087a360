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
  | 'rows' // a table: several records, each with the `rowFields` (a sheet's rows)
  | 'password';

/** Where a host places the field: main fields first, UTM fields together, the rest under "Options". */
export type FieldGroup = 'main' | 'utm' | 'options';

export interface FieldChoice {
  value: string;
  label: string;
  help?: string;
}

/** A value a condition compares with: a choice's value, a switch, a number. */
export type FieldConditionValue = string | number | boolean;

/**
 * A condition on the other values of the same form: every key names a field, and holds when that field's
 * value (its default when empty) is one of the listed ones. `{ selectBy: ['campaign'] }`: "when Links is Of
 * a Campaign". Hosts turn it into their widget's rule (n8n's displayOptions, an MCP schema's description).
 */
export type FieldCondition = Readonly<Record<string, readonly FieldConditionValue[]>>;

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
  /** Required whenever the field is shown (see showWhen). */
  required?: boolean;
  /** Shown (and read) only when this holds; absent: always. A hidden field's value counts as empty. */
  showWhen?: FieldCondition;
  /** Required only when this holds (e.g. Campaign when Links is Of a Campaign); `required` wins when set. */
  requiredWhen?: FieldCondition;
  placeholder?: string;
  default?: string | number | boolean;
  /**
   * The value a field starts at when a person adds it to the form one field at a time (n8n's collections),
   * where it differs from `default`. Unlike `default`, an empty field still means "not set": Update's Active
   * starts at on when added, yet an Update without it leaves the link's state alone.
   */
  startValue?: string | number | boolean;
  choices?: readonly FieldChoice[];
  /** Bounds of a number field (inclusive); for `rows`, how many rows one run takes. */
  min?: number;
  max?: number;
  /** For `list` fields: what each entry is. */
  listOf?: 'link' | 'number' | 'text';
  /** For `rows` fields: the columns of each row, read like a form of their own. */
  rowFields?: readonly FormField[];
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

/** The value a condition reads for `key`: the form's value (a choice typed by its label as its value), else the field's default. */
function conditionValue(fields: readonly FormField[], values: Readonly<Record<string, unknown>>, key: string): unknown {
  const field = fields.find((candidate) => candidate.key === key);
  const value = values[key];
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return field?.default;
  const text = String(value).trim().toLowerCase();
  const choice = field?.choices?.find((entry) => entry.value.toLowerCase() === text || entry.label.toLowerCase() === text);
  return choice ? choice.value : value;
}

/** Whether a condition holds for these values (absent: it holds); text compares without regard to case. */
export function conditionHolds(condition: FieldCondition | undefined, values: Readonly<Record<string, unknown>>, fields: readonly FormField[] = []): boolean {
  if (condition === undefined) return true;
  return Object.entries(condition).every(([key, allowed]) => {
    const value = conditionValue(fields, values, key);
    return allowed.some((entry) => entry === value || String(entry).toLowerCase() === String(value).toLowerCase());
  });
}

/** Whether the field must be filled for these values: always-required, or its requiredWhen holds while it is shown. */
export function isRequired(field: FormField, values: Readonly<Record<string, unknown>>, fields: readonly FormField[] = []): boolean {
  if (!conditionHolds(field.showWhen, values, fields)) return false;
  return field.required === true || (field.requiredWhen !== undefined && conditionHolds(field.requiredWhen, values, fields));
}

/** Whether the field is required on a form that shows every field at once (Zapier, an agent's schema). */
export function alwaysRequired(field: FormField): boolean {
  return field.required === true && field.showWhen === undefined && field.requiredWhen === undefined;
}

/** A condition in the form's words: `"Links" is "Of a Campaign"`, `"Also Make a QR Code" is on`. */
export function conditionText(condition: FieldCondition, fields: readonly FormField[]): string {
  return Object.entries(condition)
    .map(([key, allowed]) => {
      const field = fields.find((candidate) => candidate.key === key);
      const said = allowed.map((value) => {
        if (typeof value === 'boolean') return value ? 'on' : 'off';
        const label = field?.choices?.find((choice) => choice.value === value)?.label ?? String(value);
        return `"${label}"`;
      });
      return `"${field?.label ?? key}" is ${said.join(' or ')}`;
    })
    .join(' and ');
}
