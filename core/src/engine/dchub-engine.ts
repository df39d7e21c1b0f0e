#!/usr/bin/env node
import { VERSION } from '../version.js';
import { startEngine } from './main.js';

if (process.argv.includes('--version')) process.stdout.write(`${VERSION}\n`);
else startEngine(VERSION);
