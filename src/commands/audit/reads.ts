import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { intFlag, RANGES } from '../../cli/int-flag.js';
import { listReads } from '../../core/governance/audit.js';
import { parseSince } from '../../core/time.js';
import { auditReadsView } from '../../views/render-governance.js';

export default class AuditReads extends HippoCommand {
  static override summary = "Who was handed which of an agent's memories: the read audit, newest first (ids only, never text).";
  static override description =
    'Every MCP read (memory_search, memory_get, memory_list, candidate_show, facts_extract, rem_prompt, resources) is recorded with its time, the client (name and version, token id over HTTP) and the memory ids it handed over; CLI reads too when the config key audit.cliReads is on. Never a query or a memory text (docs/governance.md).';
  static override examples = [
    '<%= config.bin %> audit reads --memory mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M',
    '<%= config.bin %> audit reads --client "claude-code 2.1.0" --since 7d --json',
  ];
  static override flags = {
    memory: Flags.string({ description: 'only reads that handed over this memory (who saw it?)' }),
    client: Flags.string({ description: 'only reads by this client (exact, as listed)' }),
    since: Flags.string({ description: 'only reads since then (7d, an ISO date, or words such as "last monday")' }),
    limit: intFlag({ ...RANGES.count, char: 'n', default: 100, description: 'how many' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(AuditReads);
    const store = await this.existingStore(flags.db);
    const reads = await listReads(store, {
      agentId: this.agentId(flags.agent),
      memoryId: flags.memory,
      client: flags.client,
      since: flags.since === undefined ? undefined : parseSince(flags.since, '--since', store.clock()),
      limit: flags.limit,
    });
    this.output({ reads }, auditReadsView);
  }
}
