/**
 * The CLI run from the TypeScript sources (`npx tsx src/cli/from-source.ts …`), for the project's own
 * scripts that must write next to the sources: `npm run manifest` regenerates specs/manifest.json and
 * src/rules/rule-ids.ts. Users run the built CLI (bin/directory-conformance.mjs).
 */
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
