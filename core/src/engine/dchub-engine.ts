#!/usr/bin/env node
import { engineVersion, startEngine } from './main.js';

if (process.argv.includes('--version')) process.stdout.write(`${engineVersion()}\n`);
else startEngine(engineVersion());
