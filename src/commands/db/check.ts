import { HippoCommand } from '../../cli/base-command.js';
import { checkView } from '../../views/render-db.js';
import { checkStore } from '../../core/db-copy.js';

export default class DbCheck extends HippoCommand {
  static override summary =
    'Show the store: engine and version, where it lives (never a password), schema version, and every table read back with its count and content hash.';
  static override description =
    'Every row of every table is read once, so a row the store cannot give back fails the check. The hashes are the ones `db copy` verifies: two stores with the same hashes hold the same rows.';
  static override examples = ['<%= config.bin %> db check', '<%= config.bin %> db check --db postgres://hippo@db.example.com/hippo --json'];

  async run(): Promise<void> {
    const { flags } = await this.parse(DbCheck);
    this.output(await checkStore(await this.store(flags.db), this.abortSignal), checkView);
  }
}
