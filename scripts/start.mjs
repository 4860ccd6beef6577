// `npm start`: build what is missing, then run the server (it migrates the database on start).
import { createRequire } from 'node:module';
import { ensureBuilt } from './ensure-built.mjs';

ensureBuilt();
createRequire(import.meta.url)('../backend/dist/main.js');
