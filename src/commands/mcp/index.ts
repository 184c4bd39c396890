import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { intFlag } from '../../cli/int-flag.js';
import { mcpHttpNotes, mcpStdioNote } from '../../views/render-mcp.js';
import { listTokens } from '../../core/tokens.js';

export default class Mcp extends HippoCommand {
  static override summary = 'Serve this agent’s memories to AI agents over the Model Context Protocol (stdio, or HTTP with --http).';
  static override description = `Tools: memory_add, memory_get, memory_list, memory_search (with the fact box), facts_extract, rem_prompt and rem_ingest (distillation by the client's own model), candidates_list, candidate_show; candidate_promote and candidate_reject only with --allow-review (review is a person's decision by default). A memory is also a resource (hippo://memory/{id}), and the distill prompt walks a model through the loop.

The agent is fixed when the server starts (--agent, else $HIPPO_AGENT, else "default"); no tool reaches another agent's memories. On stdio, stdout carries protocol frames only; notices go to stderr, and nothing logs memory text, prompts or answers.

--http serves the Streamable HTTP transport at /mcp, on 127.0.0.1 by default. Any address that is not loopback requires bearer tokens (hippo mcp token create --agent A), and each request is served as its token's agent.`;
  static override examples = [
    'claude mcp add hippo -- <%= config.bin %> mcp --agent me',
    '<%= config.bin %> mcp --agent ops-agent --allow-review',
    '<%= config.bin %> mcp --http --port 8765 --agent me',
    '<%= config.bin %> mcp --http --host 0.0.0.0 --port 8765   # tokens required: hippo mcp token create --agent A',
  ];
  /** No --json: stdout carries protocol frames only (`hippo mcp --json` is an unknown flag, exit 2, on stderr). */
  static override baseFlags = { db: HippoCommand.baseFlags.db, agent: HippoCommand.baseFlags.agent } as unknown as typeof HippoCommand.baseFlags;
  static override flags = {
    http: Flags.boolean({ default: false, description: 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio' }),
    host: Flags.string({ default: '127.0.0.1', description: 'with --http: the address to bind (not loopback: bearer tokens required)' }),
    port: intFlag({ min: 0, max: 65_535, default: 8765, description: 'with --http: the port (0: any free port)' }),
    'require-token': Flags.boolean({ default: false, description: 'with --http: require a bearer token on loopback too' }),
    'allow-origin': Flags.string({ multiple: true, description: 'with --http: a browser origin allowed to call (scheme://host[:port]; repeatable)' }),
    'allow-review': Flags.boolean({ default: false, description: 'offer candidate_promote and candidate_reject (review is a person’s decision by default)' }),
  };

  /** Protocol frames own stdout: an error is always a message on stderr, never a JSON document on stdout. */
  protected override get jsonMode(): boolean {
    return false;
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp);
    const agentId = this.agentId(flags.agent);
    const store = await this.store(flags.db);
    // Loaded only here: the MCP SDK is for `hippo mcp` alone (test/commands/startup.test.ts).
    const mcp = await import('../../mcp/index.js');
    const common = { store, agentId, allowReview: flags['allow-review'], version: this.config.version };
    if (!flags.http) {
      this.note(mcpStdioNote({ agentId, location: store.location, allowReview: common.allowReview }));
      return mcp.serveStdio({ ...common, signal: this.abortSignal });
    }
    const server = await mcp.serveHttp({
      ...common,
      host: flags.host,
      port: flags.port,
      requireTokens: flags['require-token'],
      allowedOrigins: flags['allow-origin'] ?? [],
    });
    const liveTokens = server.requireTokens ? (await listTokens(store)).filter((token) => token.revokedAt === null).length : 0;
    for (const line of mcpHttpNotes({ url: server.url, agentId, requireTokens: server.requireTokens, liveTokens, allowReview: common.allowReview }))
      this.note(line);
    await new Promise<void>((resolve) => {
      if (this.abortSignal.aborted) resolve();
      this.abortSignal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
  }
}
