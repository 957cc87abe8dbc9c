import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * A stand-in for `codex app-server`, for the installer tests that must run without the real CLI
 * (`npm run test:agents` checks the same things against the real Codex). It answers `initialize`
 * and `hooks/list` the way codex-cli 0.171.0 does: hooks from `$CODEX_HOME/hooks.json`, and from
 * `<cwd>/.codex/hooks.json` only when config.toml trusts the project; keys
 * `<file>:<event_snake_case>:<group>:<handler>`; a hash over the handler; a trust status read from
 * `[hooks.state."<key>"] trusted_hash`. Like Codex, it refuses a config.toml that is not valid
 * TOML (a duplicated table, say), so an installer that appends instead of rewriting fails here too.
 * Every invocation is appended to `calls.log` beside it.
 */
export function installFakeCodex(dir: string): string {
  const bin = join(dir, 'fake-codex-bin')
  mkdirSync(bin, { recursive: true })
  const toml = pathToFileURL(createRequire(import.meta.url).resolve('smol-toml')).href
  const file = join(bin, 'codex')
  writeFileSync(file, script(toml, join(bin, 'calls.log')))
  chmodSync(file, 0o755)
  return bin
}

function script(tomlModule: string, callLog: string): string {
  return `#!/usr/bin/env node
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { parse } from ${JSON.stringify(tomlModule)}

appendFileSync(${JSON.stringify(callLog)}, process.argv.slice(2).join(' ') + '\\n')
if (process.argv[2] !== 'app-server') {
  console.log('codex-cli 0.0.0-fake')
  process.exit(0)
}
const codexHome = process.env.CODEX_HOME || join(process.env.HOME, '.codex')
const configFile = join(codexHome, 'config.toml')
let config = {}
try {
  config = existsSync(configFile) ? parse(readFileSync(configFile, 'utf8')) : {}
} catch (error) {
  console.error('Error loading config.toml: ' + error.message)
  process.exit(1)
}
const snake = (event) => event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase()
const camel = (event) => event[0].toLowerCase() + event.slice(1)
const trusted = config.hooks?.state ?? {}
function hooksOf(file, source) {
  if (!existsSync(file)) return []
  const hooks = JSON.parse(readFileSync(file, 'utf8')).hooks ?? {}
  return Object.entries(hooks).flatMap(([event, groups]) => groups.flatMap((group, g) => group.hooks.map((handler, h) => {
    const key = file + ':' + snake(event) + ':' + g + ':' + h
    const currentHash = 'sha256:' + createHash('sha256').update(JSON.stringify({ event, matcher: group.matcher ?? null, handler })).digest('hex')
    const recorded = trusted[key]?.trusted_hash
    const trustStatus = recorded === undefined ? 'untrusted' : recorded === currentHash ? 'trusted' : 'modified'
    return { key, eventName: camel(event), handlerType: 'command', command: handler.command, sourcePath: file, source, currentHash, trustStatus, enabled: true }
  })))
}
function list(cwd) {
  const projectTrusted = config.projects?.[cwd]?.trust_level === 'trusted'
  const project = projectTrusted ? hooksOf(join(cwd, '.codex', 'hooks.json'), 'project') : []
  return { cwd, hooks: [...hooksOf(join(codexHome, 'hooks.json'), 'user'), ...project], warnings: [], errors: [] }
}
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n')
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.method === 'initialize') send({ id: message.id, result: { userAgent: 'fake/0.171.0 (fake)', codexHome } })
  if (message.method === 'hooks/list') send({ id: message.id, result: { data: message.params.cwds.map(list) } })
})
`
}
