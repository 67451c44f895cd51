/**
 * Runs once when the server starts: a bad environment stops it with one `config error: …` line
 * instead of failing on the first page. `next build` needs no environment, so the build phase is
 * left alone (the shop builds with the API down or unconfigured).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    await import('./src/check-env.ts');
  }
}
