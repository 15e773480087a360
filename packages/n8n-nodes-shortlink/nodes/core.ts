/**
 * The project's core client (packages/core, portable entry), bundled into dist by esbuild. The nodes import
 * it through this file, by a relative path, not as the private workspace package `@shortlink/core`: that
 * package is not on npm, so the published package.json must not name it, and n8n's scanner accepts only
 * imports of declared packages or relative ones.
 */
export * from '../../core/src/portable';
