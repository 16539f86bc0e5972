#!/usr/bin/env node
// `npm run station -- …`: builds dist/ first when a source is newer than the last build (as `npm start`
// does), then runs the CLI from dist/, all in this one process. A separate `prestation` script cost a second
// Node start and npm lifecycle on every call (bench/cli.ts).
import { build, isStale } from './build.mjs';

if (await isStale()) await build();
await import('../dist/src/cli/main.js');
