// `npm run bench [-- section…]`: runs the benchmark sections and rewrites bench/RESULTS.md.
// BENCH_SIZES=10000,100000 limits the corpus sizes (default 10 k, 100 k, 1 M).
const sections = {
  foundation: () => import('./foundation.js'),
  rem: () => import('./rem.js'),
  nightly: () => import('./nightly.js'),
  extract: () => import('./extract.js'),
};

const wanted = process.argv.slice(2);
const sizes = process.env.BENCH_SIZES?.split(',').map(Number);
for (const [name, load] of Object.entries(sections)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`bench: ${name}`);
  const module = await load();
  await module.run(sizes ? { sizes } : {});
}
console.log('bench: results written to bench/RESULTS.md');
