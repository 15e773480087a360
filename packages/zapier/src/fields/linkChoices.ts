import type { Bundle, ZObject } from 'zapier-platform-core';
import { linkChoiceLabel } from '@shortlink/core/host';
import { clientFor } from '../client';
import { withZapierErrors } from '../errors';

/** Links per dropdown page: the API's largest page, so "load more" is rarely needed. */
export const LINK_DROPDOWN_PAGE_SIZE = 100;

/**
 * The Link dropdowns, with zapier-platform-core 19's perform-based choices: one page of the list per call,
 * newest first; the list's cursor is the paging token Zapier hands back on "load more" (null: no more).
 * Looking for one link among thousands is the Link field's search connector (Find Link), which searches
 * the whole account.
 */
async function perform(z: ZObject, bundle: Bundle) {
  const token = (bundle.meta as { paging_token?: string | null } | undefined)?.paging_token;
  const page = await clientFor(z, bundle).listLinks({ limit: LINK_DROPDOWN_PAGE_SIZE, cursor: token || undefined });
  return {
    results: page.links.map((link) => ({ id: link.id, label: linkChoiceLabel(link) })),
    paging_token: page.nextCursor ?? null,
  };
}

export const linkChoices = { perform: withZapierErrors(perform) };
