import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../cli/base-command.js';
import { confirmDestructive } from '../cli/confirm.js';
import { demoView } from '../views/render-memory.js';
import { resolveDb } from '../core/db-location.js';
import { demoDbPath } from '../core/paths.js';

export default class Demo extends HippoCommand {
  static override summary = 'Load a realistic sample (two agents, six weeks of work notes) into the demo store, never into your own.';
  static override description = `Without --db or HIPPO_DB, loads into the demo store beside the default database (<XDG data>/hippo/demo.db) and prints the export line that points a shell at it; running it again finds the demo there and writes nothing. With --db or HIPPO_DB, loads into that store, which must be empty (or hold only the demo).`;
  static override examples = [
    '<%= config.bin %> demo',
    '<%= config.bin %> demo --db /tmp/hippo-demo.db && <%= config.bin %> search "billing cron" --db /tmp/hippo-demo.db --agent ops-agent',
    '<%= config.bin %> demo --force --yes',
  ];
  static override flags = {
    force: Flags.boolean({ default: false, description: 'load even if the database is not empty, replacing earlier demo data' }),
    yes: Flags.boolean({ char: 'y', default: false, description: 'do not ask for confirmation (needed with --force when not on a terminal)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Demo);
    const { loadDemo } = await import('../core/demo.js');
    // Only a store named by --db or HIPPO_DB receives the demo; otherwise it gets a store of its own. A HIPPO_DB set but
    // empty is refused here as everywhere (empty_db_path), not taken for "unset".
    const { location, source } = resolveDb(flags.db, { unnamed: demoDbPath });
    const demoStore = source === 'default';
    const store = await this.store(demoStore ? location : flags.db);
    if (flags.force) await confirmDestructive(`replace the demo data in ${store.location}?`, flags.yes);
    this.output({ ...(await loadDemo(store, { force: flags.force, ownStore: demoStore })), path: store.location, demoStore }, demoView(store.location));
  }
}
