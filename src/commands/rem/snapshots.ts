import { Flags } from '@oclif/core';
import { HippoCommand } from '../../cli/base-command.js';
import { snapshotsView } from '../../cli/render-nightly.js';
import { listSnapshots, snapshotDir } from '../../core/nightly/snapshot.js';

export default class RemSnapshots extends HippoCommand {
  static override summary = 'List the snapshots taken by nightly runs and restores, newest first.';
  static override description =
    'Each snapshot shows its time (UTC), size, the run that took it, and its integrity: "verified" (it passed quick_check when written and its header still describes a whole file), "ok" (passed a quick_check just now, with --check) or "damaged". Snapshots live in snapshots/ beside the database.';
  static override examples = ['<%= config.bin %> rem snapshots', '<%= config.bin %> rem snapshots --check --json'];
  static override flags = {
    check: Flags.boolean({ default: false, description: 'run PRAGMA quick_check on every snapshot now (slower for large stores)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemSnapshots);
    const store = await this.store(flags.db);
    this.output({ snapshots: await listSnapshots(store, { check: flags.check }) }, snapshotsView(snapshotDir(store)));
  }
}
