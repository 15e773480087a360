/**
 * The service's largest page (spec: `limit` 1 to 100). Every walk over the account reads pages of this size:
 * the fewest requests for the links it must see.
 */
export const MAX_PAGE_SIZE = 100;
