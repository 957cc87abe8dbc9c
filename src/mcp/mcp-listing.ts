/**
 * What the MCP server says before any tool runs, recorded at build time from the server itself
 * (scripts/build-bundles.mjs writes dist/mcp/mcp-listing.json): its answer to `initialize` and to
 * `tools/list`. An agent CLI waits for both before its first model request, and producing them
 * live means loading the MCP SDK (hundreds of zod schemas), zod and every tool's services: most
 * of the server's start-up. With the listing, `lazy-server.ts` answers them from a file and loads
 * the server at the first request the listing cannot answer (D395).
 *
 * The answers are the SDK's own, byte for byte, and only for requests the SDK would accept as
 * they are: anything the checks below are not sure of goes to the SDK, which answers (or refuses)
 * it as it always did.
 */
export interface McpListing {
  /** sangam's version when recorded: a listing from another build is not used. */
  readonly version: string
  readonly supportedProtocolVersions: readonly string[]
  readonly latestProtocolVersion: string
  /** The SDK's `initialize` result for `latestProtocolVersion`. */
  readonly initializeResult: Record<string, unknown>
  /** The SDK's `tools/list` result. */
  readonly toolsListResult: Record<string, unknown>
}

/** What the listing does with one line read from the client, before the SDK is loaded. */
export type EarlyAnswer =
  /** Answered: write `response` (one line); `replay` is what the SDK must still be told. */
  | { readonly kind: 'answered'; readonly response: string; readonly replay: ReplayedLine | null }
  /** Needs nothing written: a notification the SDK is only told of later. */
  | { readonly kind: 'noted'; readonly replay: ReplayedLine }
  /** The listing cannot answer it: the SDK must be loaded and given this line. */
  | { readonly kind: 'needs-server' }

/** A line the SDK is given once loaded, so its state is what it would have been. */
export interface ReplayedLine {
  readonly line: string
  /** The id of the request whose answer, already sent, the SDK must not send again. */
  readonly answeredId: string | null
}

/** The id a replayed `initialize` carries, so that its second answer can be told apart and dropped. */
export const replayedInitializeId = 'sangam-replayed-initialize'

/** The listing if `value` is one recorded for `version`, else null (then every line goes to the SDK). */
export function parseListing(value: unknown, version: string): McpListing | null {
  if (!isPlainObject(value) || value.version !== version) return null
  const { supportedProtocolVersions, latestProtocolVersion, initializeResult, toolsListResult } = value
  if (
    !Array.isArray(supportedProtocolVersions) ||
    !supportedProtocolVersions.every((each) => typeof each === 'string') ||
    typeof latestProtocolVersion !== 'string' ||
    !isPlainObject(initializeResult) ||
    !isPlainObject(toolsListResult) ||
    !Array.isArray(toolsListResult.tools)
  ) {
    return null
  }
  return { version, supportedProtocolVersions, latestProtocolVersion, initializeResult, toolsListResult }
}

/** What to do with one line (without its newline) read before the SDK is loaded. */
export function earlyAnswer(line: string, listing: McpListing): EarlyAnswer {
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return { kind: 'needs-server' }
  }
  if (isInitializedNotification(message)) return { kind: 'noted', replay: { line, answeredId: null } }
  if (!isRequest(message)) return { kind: 'needs-server' }
  if (message.method === 'initialize' && isInitializeParams(message.params)) {
    const requested = message.params.protocolVersion
    const protocolVersion = listing.supportedProtocolVersions.includes(requested)
      ? requested
      : listing.latestProtocolVersion
    return {
      kind: 'answered',
      response: response({ ...listing.initializeResult, protocolVersion }, message.id),
      replay: {
        line: JSON.stringify({ ...message, id: replayedInitializeId }),
        answeredId: replayedInitializeId,
      },
    }
  }
  if (message.method === 'tools/list' && isListParams(message.params)) {
    return { kind: 'answered', response: response(listing.toolsListResult, message.id), replay: null }
  }
  return { kind: 'needs-server' }
}

/** The SDK's response, serialised as its stdio transport does (key order included). */
function response(result: unknown, id: string | number): string {
  return JSON.stringify({ result, jsonrpc: '2.0', id })
}

interface Request {
  readonly jsonrpc: '2.0'
  readonly id: string | number
  readonly method: string
  readonly params?: unknown
}

/** A JSON-RPC request as the SDK's strict schema takes it: no other key, an integer or string id. */
function isRequest(value: unknown): value is Request {
  return (
    isPlainObject(value) &&
    Object.keys(value).every((key) => ['jsonrpc', 'id', 'method', 'params'].includes(key)) &&
    value.jsonrpc === '2.0' &&
    (typeof value.id === 'string' || Number.isSafeInteger(value.id)) &&
    typeof value.method === 'string'
  )
}

function isInitializedNotification(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    Object.keys(value).every((key) => ['jsonrpc', 'method', 'params'].includes(key)) &&
    value.jsonrpc === '2.0' &&
    value.method === 'notifications/initialized' &&
    (value.params === undefined || (isPlainObject(value.params) && Object.keys(value.params).length === 0))
  )
}

/**
 * `initialize`'s parameters where the SDK's schema surely accepts them: the fields it reads with
 * the types it requires, no `_meta` and no icons (whose shapes are the SDK's to check). Keys it
 * does not know it accepts (and drops), as the SDK does.
 */
function isInitializeParams(value: unknown): value is { protocolVersion: string } {
  if (!isPlainObject(value) || '_meta' in value || typeof value.protocolVersion !== 'string') return false
  const { clientInfo, capabilities } = value
  return (
    isPlainObject(clientInfo) &&
    typeof clientInfo.name === 'string' &&
    typeof clientInfo.version === 'string' &&
    !('icons' in clientInfo) &&
    ['title', 'websiteUrl', 'description'].every(
      (key) => !(key in clientInfo) || typeof clientInfo[key] === 'string',
    ) &&
    isPlainObject(capabilities) &&
    Object.entries(capabilities).every(
      ([key, capability]) => !knownCapabilities.has(key) || isObjectTree(capability, key),
    )
  )
}

/** The client capabilities the SDK's schema types; it takes any other key as it is. */
const knownCapabilities = new Set(['experimental', 'sampling', 'elicitation', 'roots', 'tasks', 'extensions'])

/**
 * Objects all the way down (what every known capability's schema accepts), with the two flags the
 * schema types as booleans: `roots.listChanged` and `elicitation.form.applyDefaults`.
 */
function isObjectTree(value: unknown, path: string): boolean {
  if (typeof value === 'boolean')
    return path === 'roots.listChanged' || path === 'elicitation.form.applyDefaults'
  return (
    isPlainObject(value) &&
    Object.entries(value).every(([key, inner]) => isObjectTree(inner, `${path}.${key}`))
  )
}

/** `tools/list`'s parameters: none, or a page cursor (which the server ignores: one page). */
function isListParams(value: unknown): boolean {
  return (
    value === undefined ||
    (isPlainObject(value) &&
      Object.keys(value).every((key) => key === 'cursor') &&
      (value.cursor === undefined || typeof value.cursor === 'string'))
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
