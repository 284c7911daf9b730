#!/usr/bin/env node
// `npx tensorcast explore [--port N] [--host H] [--open]`: serve the broadcast
// explorer that ships in this package. `npx tensorcast --help` says more (bin/cli.mjs).
import { main } from './cli.mjs';

const status = await main(process.argv.slice(2));
if (status !== null) process.exitCode = status;
