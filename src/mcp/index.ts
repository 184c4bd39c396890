/**
 * hippo's MCP server (docs/mcp.md), for `hippo mcp` and for embedding: `import { createHippoServer } from 'hippo/mcp'`.
 * This entry loads the MCP SDK; the library entry (`hippo`) never does.
 */
export { createHippoServer, MEMORY_URI_PREFIX, type HippoServer, type HippoServerOptions } from './server.js';
export { hippoTools, REVIEW_BY_PERSON, type ToolDefinition } from './tools.js';
export { LineTransport, MAX_LINE_BYTES, serveStdio } from './stdio.js';
export { isLoopback, MAX_BODY_BYTES, MCP_PATH, serveHttp, type HttpServeOptions, type RunningHttpServer } from './http.js';
export { LIMITS } from './schemas.js';
