import * as Args from '@oclif/core/args';
import { HippoCommand } from '../../../cli/base-command.js';
import { tokenRevokeView } from '../../../views/render-mcp.js';
import { revokeTokens } from '../../../core/tokens.js';

export default class McpTokenRevoke extends HippoCommand {
  static override summary = 'Revoke hippo mcp --http tokens by id: the next request with one gets 401.';
  static override examples = ['<%= config.bin %> mcp token revoke tok_01JD3Z8N6Q2W4E5R7T9Y1U3I5O'];
  static override strict = false;
  static override args = { ids: Args.string({ ignoreStdin: true, required: true, description: 'token ids (tok_…), from hippo mcp token list' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(McpTokenRevoke);
    this.output(await revokeTokens(await this.store(flags.db), argv as string[]), tokenRevokeView);
  }
}
