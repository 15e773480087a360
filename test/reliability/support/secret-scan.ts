/**
 * Finds a secret anywhere inside a value: strings, nested objects and arrays, Error objects with their
 * non-enumerable message and stack, `cause` chains, Maps and Sets. Cycles are followed once.
 * Returns the paths where the secret was found (empty = clean), so a failure says where it leaked.
 */
export function findSecret(value: unknown, secret: string, path = '$'): string[] {
  const hits: string[] = [];
  const seen = new WeakSet<object>();

  const visit = (current: unknown, at: string, depth: number): void => {
    if (depth > 40) return;
    if (typeof current === 'string') {
      if (current.includes(secret)) hits.push(at);
      return;
    }
    if (typeof current === 'function') {
      // A function's source is not data, but a closure must not hold the key in its own properties.
      for (const key of Object.keys(current)) visit((current as unknown as Record<string, unknown>)[key], `${at}.${key}`, depth + 1);
      return;
    }
    if (typeof current !== 'object' || current === null) return;
    if (seen.has(current)) return;
    seen.add(current);
    if (current instanceof Map) {
      for (const [key, entry] of current) {
        visit(key, `${at}<key>`, depth + 1);
        visit(entry, `${at}[${String(key)}]`, depth + 1);
      }
      return;
    }
    if (current instanceof Set) {
      let index = 0;
      for (const entry of current) visit(entry, `${at}{${index++}}`, depth + 1);
      return;
    }
    if (Buffer.isBuffer(current)) {
      if (current.toString('utf8').includes(secret)) hits.push(at);
      return;
    }
    // Own properties, enumerable or not (Error.message, Error.stack), plus the usual error fields.
    const keys = new Set<string>(Object.getOwnPropertyNames(current));
    if (current instanceof Error) for (const key of ['message', 'stack', 'cause', 'description']) keys.add(key);
    for (const key of keys) {
      let entry: unknown;
      try {
        entry = (current as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      visit(entry, `${at}.${key}`, depth + 1);
    }
    // What a log or a UI would print of it.
    if (current instanceof Error) {
      const shown = `${String(current)} ${safeJson(current)}`;
      if (shown.includes(secret)) hits.push(`${at}<printed>`);
    }
  };

  visit(value, path, 0);
  return hits;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
