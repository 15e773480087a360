/**
 * Real clicks on the sandbox: GET requests to a link's short URL, which the sandbox's redirect endpoint
 * answers with a 302 and records as a click (packages/sandbox/src/redirect-routes.ts). Redirects are not
 * followed (the target is example.org).
 */
import { request } from 'node:http';

function visit(url: string, scan = false): Promise<number> {
  return new Promise((resolve, reject) => {
    // A scan: a phone's camera app, no Referer; the sandbox's header labels it a QR visit (click-parsing.ts).
    const headers = scan ? { 'User-Agent': 'Mozilla/5.0 (iPhone; scan test)', 'X-Sandbox-Scan': '1' } : { 'User-Agent': 'Mozilla/5.0 (click test)' };
    const req = request(url, { method: 'GET', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Clicks `shortUrl` `times` times (a few at once); fails unless every visit was a recorded redirect. */
export async function click(shortUrl: string, times: number, scan = false): Promise<void> {
  let left = times;
  while (left > 0) {
    const batch = Math.min(left, 25);
    const statuses = await Promise.all(Array.from({ length: batch }, () => visit(shortUrl, scan)));
    const wrong = statuses.find((status) => status !== 302);
    if (wrong !== undefined) throw new Error(`A click on ${shortUrl} got ${wrong}, not a redirect`);
    left -= batch;
  }
}

/** Scans of a printed QR code that opens `shortUrl`: visits the sandbox records with the referrer label "qr". */
export function scan(shortUrl: string, times: number): Promise<void> {
  return click(shortUrl, times, true);
}
