/** Small HTTP helpers for the sandbox's own tests (node:http so that Host can be set). */
import { request } from 'node:http';

export interface Visit {
  status: number;
  location: string | undefined;
  contentType: string | undefined;
  setCookie: string[] | undefined;
  body: string;
}

/** A visitor's GET (or HEAD) of a short URL path, with any headers, redirects not followed. */
export function visit(baseUrl: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Visit> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, location: res.headers.location, contentType: res.headers['content-type'], setCookie: res.headers['set-cookie'], body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** An API call with a key; returns status, headers and parsed JSON (or undefined when empty). */
export async function api(baseUrl: string, apiKey: string | undefined, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) headers.Authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json: any = text === '' ? undefined : JSON.parse(text);
  return { status: response.status, headers: response.headers, json, text };
}
