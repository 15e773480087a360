/** Every gap decision of the document (`x-assumption`) must be listed in docs/api-contract.md. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { document, type Json } from './openapi-contract';

/** [location, text] of every x-assumption, the location as dotted keys (e.g. `paths./links.get`). */
function assumptions(node: Json, path: string[] = []): Array<[string, string]> {
  if (node === null || typeof node !== 'object') return [];
  return Object.entries<Json>(node).flatMap(([key, value]): Array<[string, string]> =>
    key === 'x-assumption' ? [[path.join('.'), value]] : assumptions(value, [...path, key]),
  );
}

test('docs/api-contract.md lists every x-assumption by its location', () => {
  const doc = readFileSync(resolve(__dirname, '../../docs/api-contract.md'), 'utf8');
  const found = assumptions(document);
  expect(found.length).toBeGreaterThan(20);
  const missing = found.map(([location]) => location).filter((location) => !doc.includes(`| \`${location}\` |`));
  expect(missing).toEqual([]);
});

test('every x-assumption is one non-empty line of text', () => {
  for (const [location, text] of assumptions(document)) {
    expect(typeof text).toBe('string');
    expect(`${location}: ${text}`).toMatch(/^[^\n]+: \S[^\n]*$/);
  }
});
