// `npm run bench [-- section…]`: runs the benchmark sections and rewrites bench/RESULTS.md.
// BENCH_SIZES=10000,100000 limits the corpus sizes (default 10 k, 100 k, 1 M). The search section compares with
// another hippo build when HIPPO_BENCH_BEFORE names its dist/index.js, and uses HIPPO_BENCH_PG_URL for PostgreSQL.
// The benchmarks reach hippo only through its public library API (`import … from 'hippo'`, the built dist/index.js)
// and the built CLI (bin/run.js); `npm run bench` builds first and runs this file with tsx.
import type { SectionOptions } from './lib.js';

interface Section {
  run(options: SectionOptions): Promise<void>;
}

const sections: Record<string, () => Promise<Section>> = {
  foundation: () => import('./foundation.js'),
  // After foundation: in a full run it copies the 100 k store foundation imported instead of importing its own.
  startup: () => import('./startup.js'),
  // Issue 14's import against the sqlite3 CLI, then issue 26's at 100 k and 1 M lines alternating (rate, peak RSS).
  import: async () => ({
    run: async (options: SectionOptions) => {
      await (await import('./import.js')).run(options);
      // 100 k and 1 M lines, always both (its ratio is the one against the other): only when 1 M is asked for.
      if (options.sizes === undefined || options.sizes.includes(1_000_000)) await (await import('./import-scale.js')).run();
      else console.log('bench: import-scale runs at 100 k and 1 M lines together; 1 M not asked, results kept');
    },
  }),
  rem: () => import('./rem.js'),
  nightly: () => import('./nightly.js'),
  extract: () => import('./extract.js'),
  // Search in context (recall, cost), then issue 26's floors (cold search against the sqlite3 CLI, import, size), then
  // warm memory_search over MCP stdio against the library call: with `import`, every issue 26 target in one run.
  search: async () => ({
    run: async (options: SectionOptions) => {
      await (await import('./search-context.js')).run(options);
      await (await import('./search-floor.js')).run(options);
      await (await import('./mcp.js')).run();
    },
  }),
  // Issue 26's floors alone (the search section runs them after search-context).
  'search-floor': () => import('./search-floor.js'),
  // Issue 26's import at 100 k and 1 M lines alternating (rate and peak RSS against the file's size).
  'import-scale': () => import('./import-scale.js'),
  redaction: () => import('./redaction.js'),
  // Also run by `search`.
  mcp: () => import('./mcp.js'),
  audit: () => import('./audit.js'),
  postgres: () => import('./postgres.js'),
  agents: () => import('./agents.js'),
  // Issue 25 at 1 M over MCP: db copy, warm and cold search PostgreSQL vs SQLite, 20 HTTP clients under load.
  'agents-load': () => import('./agents-load.js'),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in sections));
if (unknown.length > 0) {
  console.error(`bench: unknown section ${unknown.join(', ')} (sections: ${Object.keys(sections).join(', ')})`);
  process.exit(2);
}
const sizes = process.env.BENCH_SIZES?.split(',').map(Number);
const started = Date.now();
for (const [name, load] of Object.entries(sections)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`bench: ${name}`);
  const section = await load();
  const sectionStart = Date.now();
  await section.run(sizes ? { sizes } : {});
  console.log(`bench: ${name} took ${((Date.now() - sectionStart) / 1000).toFixed(0)} s`);
}
console.log(`bench: all sections took ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log('bench: results written to bench/RESULTS.md');
