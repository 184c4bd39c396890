/**
 * Named fault points for the crash tests (docs/design.md §4.5, §7): `HIPPO_FAULT_POINT=<name>` makes the process stop dead at
 * that point — `HIPPO_FAULT_ACTION=crash` (default) kills it with SIGKILL, `hang` announces the point on stderr and
 * blocks synchronously (inside any open transaction) until the test kills it. Unset, a fault point costs one
 * environment lookup.
 */
export function faultPoint(name: string): void {
  if (process.env.HIPPO_FAULT_POINT !== name) return;
  if (process.env.HIPPO_FAULT_ACTION === 'hang') {
    process.stderr.write(`fault point reached: ${name}\n`);
    const cell = new Int32Array(new SharedArrayBuffer(4));
    for (;;) Atomics.wait(cell, 0, 0, 60_000);
  }
  process.kill(process.pid, 'SIGKILL');
}
