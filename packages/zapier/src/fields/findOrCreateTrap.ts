/**
 * The Find-or-Create trap, said in both halves of Zapier's Find or Create Link: the search half looks for
 * the URL with its own UTM fields; when it finds nothing the create half reuses or makes the link of its
 * own values. Different values in the two halves give a different link than the search looked for.
 */
export const SAME_UTM_IN_BOTH_HALVES =
  'In Find or Create Link, enter the same UTM values here and in the other half (search and create): different values look for one URL and reuse or create another.';
