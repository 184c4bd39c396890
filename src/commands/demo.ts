import { Flags } from '@oclif/core';
import { HippoCommand } from '../cli/base-command.js';
import { confirmDestructive } from '../cli/confirm.js';
import { demoView } from '../cli/render-memory.js';
import { loadDemo } from '../core/demo.js';

export default class Demo extends HippoCommand {
  static override summary = 'Load a realistic sample (two agents, six weeks of work notes) into an empty database.';
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
    const store = await this.store(flags.db);
    if (flags.force) await confirmDestructive(`replace the demo data in ${store.location}?`, flags.yes);
    this.output(await loadDemo(store, { force: flags.force }), demoView(store.location));
  }
}
