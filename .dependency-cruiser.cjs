// The import boundaries of ARCHITECTURE.md ("Layers and folders"), checked in CI
// (`npm run lint:imports`). A surface reaches the domain through GraphQL operations, never
// through Prisma or SQL; a lower layer never imports a higher one.
const SURFACES = '^(src/(rest|mcp|cli|console|graphql)|integration)/';
const DATABASE =
  '^(src/db/|src/generated/prisma/)|node_modules/@prisma/|node_modules/@electric-sql/pglite/|node_modules/pg/';
const COMPOSITION_ROOTS = '^src/(app|service)[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'surface-imports-database',
      comment:
        'REST, MCP, GraphQL operations, the CLI and the board app reach data through the domain schema, never Prisma, SQL or a driver.',
      severity: 'error',
      // The operator's commands open the database themselves (no service runs): the CLI's own
      // composition roots, as src/service.ts is the server's.
      from: { path: SURFACES, pathNot: '^src/cli/(operator[.]ts|server[.]command[.]ts)$' },
      to: { path: DATABASE },
    },
    {
      name: 'normalize-is-pure',
      comment: 'The normalizers are pure functions of their input: libraries only.',
      severity: 'error',
      from: { path: '^src/normalize/' },
      to: { path: '^(src|integration)/', pathNot: '^src/normalize/' },
    },
    {
      name: 'domain-knows-no-surface',
      comment: 'The domain is below every surface and every job runner: it imports neither.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: `${SURFACES}|^src/(http|jobs)/|${COMPOSITION_ROOTS}` },
    },
    {
      name: 'graphql-knows-only-the-domain',
      comment: 'Operations and their runner sit on the domain schema; the surfaces import them, not the reverse.',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: `^(src/(rest|mcp|cli|console|http|jobs)|integration)/|${COMPOSITION_ROOTS}` },
    },
    {
      name: 'jobs-and-adapters-know-no-surface',
      comment: 'Jobs, telephony adapters, config and the database run below the surfaces.',
      severity: 'error',
      from: { path: '^src/(jobs|calls|config|db|logging)/' },
      to: { path: `${SURFACES}|^src/http/|${COMPOSITION_ROOTS}` },
    },
    {
      name: 'http-knows-no-surface',
      comment:
        'src/http holds what every surface shares (request context, error body, edge); the composition root mounts the surfaces.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: `${SURFACES}|${COMPOSITION_ROOTS}` },
    },
    {
      name: 'surfaces-are-separate',
      comment: 'One surface never imports another: what two surfaces share lives below them.',
      severity: 'error',
      from: { path: '^(src/(rest|mcp|cli|console)|integration)/' },
      to: { path: '^(src/(rest|mcp|cli|console)|integration)/', pathNot: '^$1/' },
    },
    {
      name: 'client-is-a-library',
      comment:
        'The typed REST client (src/client/, exported as contactline/client) runs in other programs: only its libraries and the types generated from schema/openapi.json.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^(src|integration)/', pathNot: '^src/(client|generated)/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one; give what they share a module of its own.',
      severity: 'error',
      from: { path: '^(src|integration)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
