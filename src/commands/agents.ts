import { HippoCommand } from '../cli/base-command.js';
import { agentsView } from '../views/render-lifecycle.js';
import { listAgents } from '../core/memory/lifecycle.js';

export default class Agents extends HippoCommand {
  static override summary = 'List every agent in the store: its memories (live and archived), newest memory and pending candidates.';
  static override examples = ['<%= config.bin %> agents', '<%= config.bin %> agents --json'];

  async run(): Promise<void> {
    const { flags } = await this.parse(Agents);
    this.output({ agents: await listAgents(await this.existingStore(flags.db)) }, agentsView);
  }
}
