import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../../cli/base-command.js';
import { tokenCreateView } from '../../../views/render-mcp.js';
import { createToken } from '../../../core/tokens.js';

export default class McpTokenCreate extends HippoCommand {
  static override summary = 'Create a bearer token for hippo mcp --http, bound to one agent; printed once, only its hash is stored.';
  static override examples = [
    '<%= config.bin %> mcp token create --agent ops-agent --label "ci runner"',
    'TOKEN=$(<%= config.bin %> mcp token create --agent alice)',
  ];
  static override flags = {
    label: Flags.string({ description: 'a note saying whose or what the token is for (shown by token list)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(McpTokenCreate);
    this.output(await createToken(await this.store(flags.db), { agentId: this.agentId(flags.agent), label: flags.label }), tokenCreateView);
  }
}
