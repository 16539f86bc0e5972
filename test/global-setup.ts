/** Runs once before all test files. Page bundles are built here so browser tests serve current code. */
export default async function setup(): Promise<void> {
  const { buildPages } = await import('../scripts/build-pages.mjs');
  await buildPages();
}
