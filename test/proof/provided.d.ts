// What the full proof's config provides to the tests it runs (vitest.proof.config.ts).
declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by `npm run proof`: a test that runs in both tiers widens its sample. */
    proof?: boolean;
  }
}
export {};
