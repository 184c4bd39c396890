import { startCluster } from '../test/helpers/postgres.js';
import { writeFileSync } from 'node:fs';
const c = await startCluster({ role: 'scratch' });
writeFileSync('scratch/pg.json', JSON.stringify({ url: c.url, dir: c.dir }));
console.log(c.url, c.dir);
