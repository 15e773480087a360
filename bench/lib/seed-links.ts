/**
 * Fills an account with links fast, for the figures that measure requests or memory rather than time:
 * plain fetch POSTs, a few in flight, against a sandbox whose rate limit is out of the way.
 * Any answer other than 201 stops the bench: a figure over a half-filled account would lie.
 */
export interface SeedTarget {
  baseUrl: string;
  apiKey: string;
}

const IN_FLIGHT = 16;

/** Creates `count` links; returns their ids. */
export async function seedLinks(target: SeedTarget, count: number, label: string): Promise<string[]> {
  const url = `${target.baseUrl}/api/v1/links`;
  const headers = { Authorization: `Bearer ${target.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' };
  const ids: string[] = new Array<string>(count);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < count) {
      const i = next++;
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ targetUrl: `https://example.org/${label}/${i}`, title: `${label} ${i}` }),
      });
      if (response.status !== 201) {
        throw new Error(`Seeding ${label}: link ${i} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
      }
      ids[i] = String(((await response.json()) as { id: unknown }).id);
    }
  }
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count) }, worker));
  return ids;
}
