// oclif writes the manifest's commands in the order its loader happened to finish them, which changes from build to
// build. Sorting them by id makes the committed file the same for the same commands.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../oclif.manifest.json', import.meta.url);
const manifest = JSON.parse(readFileSync(path, 'utf8'));
manifest.commands = Object.fromEntries(Object.entries(manifest.commands).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
