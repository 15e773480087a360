/**
 * The core's floors (docs/architecture.md, "The core's floors"), checked by dependency-cruiser in `npm test`
 * (`npm run lint:deps`): a part imports only parts on its own floor or below, never one above, and no file
 * reaches itself again through its imports (a cycle). Type-only imports count: a type that runs back up is
 * the same knot for a reader.
 *
 * Floors, lowest first; every file of packages/core/src is on exactly one (a test checks it).
 */
const SRC = '^packages/core/src/';

const FLOORS = [
  // Ground: the API's types, the errors, small helpers of no room.
  { name: 'ground', path: `${SRC}(types\\.ts|errors\\.ts|forbidden-reason\\.ts|generated/|basics/)` },
  // Form values as people type them: fields, readers, dates, UTM, slug rule, errors in the form's words.
  { name: 'forms', path: `${SRC}forms/` },
  // Below the client: the engines it is assembled from, from the wire up.
  { name: 'http', path: `${SRC}http/` },
  { name: 'reading', path: `${SRC}reading/` },
  { name: 'endpoints', path: `${SRC}endpoints/` },
  { name: 'polls', path: `${SRC}polls/` },
  { name: 'link-index', path: `${SRC}link-index/` },
  { name: 'creating', path: `${SRC}creating/` },
  // The client: the assembler, its options and what clients of a process share; the connection's definition.
  { name: 'client', path: `${SRC}(client\\.ts|client/|credential/)` },
  { name: 'standalone', path: `${SRC}standalone/` },
  // Above the client: the operations and the engines only they use (reports, clicks per day, QR codes, stats).
  { name: 'operations', path: `${SRC}operations/` },
  // The faces: what packages import.
  { name: 'faces', path: `${SRC}(index|portable|faces/.+)\\.ts$` },
];

const upward = FLOORS.flatMap((floor, index) => {
  const above = FLOORS.slice(index + 1).map((higher) => higher.path);
  if (above.length === 0) return [];
  return [
    {
      name: `no-upward-from-${floor.name}`,
      comment: `The ${floor.name} floor imports only its own floor or those below it (docs/architecture.md, "The core's floors").`,
      severity: 'error',
      from: { path: floor.path },
      to: { path: above },
    },
  ];
});

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-cycle',
      comment: 'No file of the core reaches itself again through its imports.',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'core-knows-no-host',
      comment: 'The core knows no host: nothing under packages/core imports another package of this repository.',
      severity: 'error',
      from: { path: SRC },
      to: { path: '^packages/(n8n-nodes-shortlink|zapier|mcp|sandbox)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|/dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
