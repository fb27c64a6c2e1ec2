#!/usr/bin/env node
// Entry point: the built JavaScript in dist/ (`npm run build`, run by `npm install` in a clone).
const { main } = await import('../dist/src/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
