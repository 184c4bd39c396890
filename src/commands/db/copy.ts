import * as Args from '@oclif/core/args';
import { HippoCommand } from '../../cli/base-command.js';
import { phasedProgressBar } from '../../cli/progress.js';
import { copyView } from '../../views/render-db.js';
import { copyBetween, copyInterrupted } from '../../core/db-copy.js';
import { resolveDb } from '../../core/db-location.js';

export default class DbCopy extends HippoCommand {
  static override summary = 'Copy a whole store into a new, empty one: SQLite → PostgreSQL, PostgreSQL → SQLite, or the same engine.';
  static override description =
    'FROM and TO are each a SQLite file or a postgres:// URL. Every row (memories, candidates, runs, handoffs, settings) keeps its id and every field; the copy is one transaction of TO, verified by counts and content hashes per table before it commits, so TO ends up with the whole store or stays empty. TO must be empty (exit 4 otherwise). The nightly lock is never copied, nor are MCP tokens (credentials, not data): the output lists the live ones with the command that creates each anew on TO. FROM is only read.';
  static override examples = [
    '<%= config.bin %> db copy ~/.local/share/hippo/hippo.db postgres://hippo@db.example.com/hippo',
    '<%= config.bin %> db copy postgres://hippo@db.example.com/hippo ./hippo-copy.db --json',
  ];
  static override args = {
    from: Args.string({ required: true, description: 'the store to copy: a SQLite file or a postgres:// URL' }),
    to: Args.string({ required: true, description: 'the empty store to copy into: a SQLite file (created) or a postgres:// URL' }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(DbCopy);
    this.interruptedError = copyInterrupted;
    // Each phase named on the terminal (copying, verifying, committing): the copy is far from over when the rows are in.
    const bar = await phasedProgressBar('rows', !this.jsonMode);
    const result = await copyBetween(resolveDb(args.from).location, resolveDb(args.to).location, {
      signal: this.abortSignal,
      onPhase: (phase, total) => bar.phase(phase, total),
      onRows: (done) => bar.update(done),
    }).finally(() => bar.stop());
    this.output(result, copyView);
  }
}
