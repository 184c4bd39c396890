// Every command and the command_not_found hook, for oclif's `explicit` command discovery (package.json): oclif loads
// this module only to run a command, never for --version or --help, which read oclif.manifest.json. `npm run build`
// bundles it with esbuild over tsc's output (scripts/bundle.mjs; docs/decisions.md, "One bundled entry"), so running a
// command reads a handful of files; what a command imports lazily stays lazy.
import Agents from '../commands/agents.js';
import AuditPrune from '../commands/audit/prune.js';
import AuditReads from '../commands/audit/reads.js';
import ConfigGet from '../commands/config/get.js';
import ConfigList from '../commands/config/list.js';
import ConfigPath from '../commands/config/path.js';
import ConfigSet from '../commands/config/set.js';
import ConfigUnset from '../commands/config/unset.js';
import DbCheck from '../commands/db/check.js';
import DbCopy from '../commands/db/copy.js';
import Demo from '../commands/demo.js';
import Extract from '../commands/extract.js';
import Mcp from '../commands/mcp/index.js';
import McpTokenCreate from '../commands/mcp/token/create.js';
import McpTokenList from '../commands/mcp/token/list.js';
import McpTokenRevoke from '../commands/mcp/token/revoke.js';
import MemoryAdd from '../commands/memory/add.js';
import MemoryArchive from '../commands/memory/archive.js';
import MemoryEdit from '../commands/memory/edit.js';
import MemoryExport from '../commands/memory/export.js';
import MemoryForget from '../commands/memory/forget.js';
import MemoryImport from '../commands/memory/import.js';
import MemoryList from '../commands/memory/list.js';
import MemoryShow from '../commands/memory/show.js';
import MemoryThread from '../commands/memory/thread.js';
import MemoryUnarchive from '../commands/memory/unarchive.js';
import ModelCheck from '../commands/model/check.js';
import RemCandidates from '../commands/rem/candidates.js';
import RemIngest from '../commands/rem/ingest.js';
import RemNightlyRunOnce from '../commands/rem/nightly/run-once.js';
import RemNightlySchedule from '../commands/rem/nightly/schedule.js';
import RemPause from '../commands/rem/pause.js';
import RemPromote from '../commands/rem/promote.js';
import RemRapid from '../commands/rem/rapid.js';
import RemReject from '../commands/rem/reject.js';
import RemReopen from '../commands/rem/reopen.js';
import RemRestore from '../commands/rem/restore.js';
import RemResume from '../commands/rem/resume.js';
import RemRuns from '../commands/rem/runs/index.js';
import RemRunsPrune from '../commands/rem/runs/prune.js';
import RemRunsShow from '../commands/rem/runs/show.js';
import RemShow from '../commands/rem/show.js';
import RemSnapshots from '../commands/rem/snapshots.js';
import Search from '../commands/search.js';
import Version from '../commands/version.js';

export { default as commandNotFound } from './command-not-found.js';

/** Every command by its oclif id (test/cli/commands.test.ts checks this against src/commands/). */
export const COMMANDS = {
  agents: Agents,
  'audit:prune': AuditPrune,
  'audit:reads': AuditReads,
  'config:get': ConfigGet,
  'config:list': ConfigList,
  'config:path': ConfigPath,
  'config:set': ConfigSet,
  'config:unset': ConfigUnset,
  'db:check': DbCheck,
  'db:copy': DbCopy,
  demo: Demo,
  extract: Extract,
  mcp: Mcp,
  'mcp:token:create': McpTokenCreate,
  'mcp:token:list': McpTokenList,
  'mcp:token:revoke': McpTokenRevoke,
  'memory:add': MemoryAdd,
  'memory:archive': MemoryArchive,
  'memory:edit': MemoryEdit,
  'memory:export': MemoryExport,
  'memory:forget': MemoryForget,
  'memory:import': MemoryImport,
  'memory:list': MemoryList,
  'memory:show': MemoryShow,
  'memory:thread': MemoryThread,
  'memory:unarchive': MemoryUnarchive,
  'model:check': ModelCheck,
  'rem:candidates': RemCandidates,
  'rem:ingest': RemIngest,
  'rem:nightly:run-once': RemNightlyRunOnce,
  'rem:nightly:schedule': RemNightlySchedule,
  'rem:pause': RemPause,
  'rem:promote': RemPromote,
  'rem:rapid': RemRapid,
  'rem:reject': RemReject,
  'rem:reopen': RemReopen,
  'rem:restore': RemRestore,
  'rem:resume': RemResume,
  'rem:runs': RemRuns,
  'rem:runs:prune': RemRunsPrune,
  'rem:runs:show': RemRunsShow,
  'rem:show': RemShow,
  'rem:snapshots': RemSnapshots,
  search: Search,
  version: Version,
};
