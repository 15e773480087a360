/**
 * The RFC 8288 `Link` header (`<https://…/links?page=2>; rel="next", <…>; rel="first"`), as services that
 * answer a bare array page with it. Only the targets and their relation types are read.
 */
export interface WebLink {
  target: string;
  rels: string[];
}

/** Every `<target>; params` entry of the header; a malformed entry is skipped. */
export function parseLinkHeader(header: string): WebLink[] {
  const links: WebLink[] = [];
  // <target> then parameters up to the next "," that starts another <target> (a quoted value may hold ",").
  const entry = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,]*))?)*)/g;
  for (const match of header.matchAll(entry)) {
    const rels: string[] = [];
    const param = /;\s*([^;,=\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,]*)))?/g;
    for (const [, name, quoted, bare] of match[2]!.matchAll(param)) {
      if (name!.toLowerCase() !== 'rel') continue;
      const value = (quoted ?? bare ?? '').trim().toLowerCase();
      rels.push(...value.split(/\s+/).filter((rel) => rel !== ''));
    }
    links.push({ target: match[1]!.trim(), rels });
  }
  return links;
}

/**
 * The rel="next" target, or: null when the header has links but none is "next" (the last page, as
 * GitHub-style services answer it), undefined when there is no usable header at all.
 */
export function nextLinkTarget(header: string | undefined): string | null | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const links = parseLinkHeader(header);
  if (links.length === 0) return undefined;
  return links.find((link) => link.rels.includes('next'))?.target ?? null;
}
