import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { snapshotsView } from '../../views/render-nightly.js';
import { snapshotDir, snapshotListing } from '../../core/nightly/snapshot.js';

export default class RemSnapshots extends HippoCommand {
  static override summary = 'List the snapshots taken by nightly runs and restores, newest first.';
  static override description =
    'Each snapshot shows its time (UTC), size, the run that took it, and its integrity: "verified" (it passed quick_check when written and its header still describes a whole file), "ok" (passed a quick_check just now, with --check) or "damaged"; then how many there are and the disk they take together. Snapshots live in snapshots/<database file name>/ beside the database (one folder per store); the nightly run thins them (hippo rem nightly run-once --help).';
  static override examples = ['<%= config.bin %> rem snapshots', '<%= config.bin %> rem snapshots --check --json'];
  static override flags = {
    check: Flags.boolean({ default: false, description: 'run PRAGMA quick_check on every snapshot now (slower for large stores)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemSnapshots);
    const store = await this.existingStore(flags.db);
    this.output(await snapshotListing(store, { check: flags.check }), snapshotsView(snapshotDir(store)));
  }
}
