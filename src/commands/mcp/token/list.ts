import { HippoCommand } from '../../../cli/base-command.js';
import { tokenListView } from '../../../views/render-mcp.js';
import { listTokens } from '../../../core/tokens.js';

export default class McpTokenList extends HippoCommand {
  static override summary = "List hippo mcp --http tokens, newest first (every agent's, or one agent's with --agent); never the secrets.";
  static override examples = ['<%= config.bin %> mcp token list', '<%= config.bin %> mcp token list --agent ops-agent --json'];

  async run(): Promise<void> {
    const { flags } = await this.parse(McpTokenList);
    const agentId = flags.agent === undefined ? undefined : this.agentId(flags.agent);
    this.output({ tokens: await listTokens(await this.store(flags.db), { agentId }) }, tokenListView);
  }
}
