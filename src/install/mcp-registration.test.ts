import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { test } from 'node:test'
import { parse as parseToml } from 'smol-toml'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { isSangamOnPath, registerMcpServer, sangamLaunch } from './mcp-registration.ts'

/** smol-toml builds null-prototype objects; compare plain ones. */
const parse = (text: string): Record<string, unknown> => JSON.parse(JSON.stringify(parseToml(text)))

const launch = sangamLaunch('/usr/local/bin/node', '/opt/sangam/dist/cli/main.js')

function targets(root: string): { projectRoot: string; codexHome: string; opencode: boolean } {
  const projectRoot = join(root, 'repo')
  mkdirSync(projectRoot, { recursive: true })
  return { projectRoot, codexHome: join(root, 'codex-home'), opencode: true }
}

test('registers with every host, creating the files, and a second run changes nothing', async () => {
  await using dir = tmpDir()
  const where = targets(dir.path)
  const first = registerMcpServer(where, { claude: launch, codex: launch, gemini: launch, opencode: launch })
  assert.deepEqual(
    first.map((entry) => [entry.host, entry.outcome]),
    [
      ['claude', 'added'],
      ['codex', 'added'],
      ['gemini', 'added'],
      ['opencode', 'added'],
    ],
  )
  assert.deepEqual(JSON.parse(readFileSync(join(where.projectRoot, 'opencode.json'), 'utf8')), {
    $schema: 'https://opencode.ai/config.json',
    mcp: {
      sangam: {
        type: 'local',
        command: ['/usr/local/bin/node', '/opt/sangam/dist/mcp/mcp-main.cjs'],
        enabled: true,
      },
    },
  })
  const geminiSettings = JSON.parse(readFileSync(join(where.projectRoot, '.gemini', 'settings.json'), 'utf8'))
  assert.deepEqual(geminiSettings.mcpServers.sangam, {
    command: '/usr/local/bin/node',
    args: ['/opt/sangam/dist/mcp/mcp-main.cjs'],
  })
  const mcpJson = JSON.parse(readFileSync(join(where.projectRoot, '.mcp.json'), 'utf8'))
  assert.deepEqual(mcpJson.mcpServers.sangam, {
    type: 'stdio',
    command: '/usr/local/bin/node',
    args: ['/opt/sangam/dist/mcp/mcp-main.cjs'],
    env: {},
  })
  const toml = readFileSync(join(where.codexHome, 'config.toml'), 'utf8')
  assert.deepEqual(parse(toml).mcp_servers, {
    sangam: {
      command: '/usr/local/bin/node',
      args: ['/opt/sangam/dist/mcp/mcp-main.cjs'],
      env_vars: ['SANGAM_HOME', 'SANGAM_USER', 'SANGAM_LOG'],
    },
  })
  const before = [readFileSync(join(where.projectRoot, '.mcp.json'), 'utf8'), toml]
  const second = registerMcpServer(where, { claude: launch, codex: launch, gemini: launch, opencode: launch })
  assert.deepEqual(
    second.map((entry) => entry.outcome),
    ['registered', 'registered', 'registered', 'registered'],
  )
  assert.deepEqual(
    [
      readFileSync(join(where.projectRoot, '.mcp.json'), 'utf8'),
      readFileSync(join(where.codexHome, 'config.toml'), 'utf8'),
    ],
    before,
  )
})

test('other servers, other settings and TOML comments survive', async () => {
  await using dir = tmpDir()
  const where = targets(dir.path)
  const otherJson = { mcpServers: { github: { command: 'gh-mcp', args: [] } }, other: { keep: true } }
  writeFileSync(join(where.projectRoot, '.mcp.json'), JSON.stringify(otherJson))
  mkdirSync(where.codexHome)
  const toml =
    '# my codex settings\nmodel = "o4" # inline comment\n\n[mcp_servers.docs]\ncommand = "docs-mcp"'
  writeFileSync(join(where.codexHome, 'config.toml'), toml)
  writeFileSync(join(where.projectRoot, 'opencode.json'), '{"model":"x/y","mcp":{"docs":{"type":"remote"}}}')
  registerMcpServer(where, { claude: launch, codex: launch, gemini: launch, opencode: launch })
  const opencode = JSON.parse(readFileSync(join(where.projectRoot, 'opencode.json'), 'utf8'))
  assert.equal(opencode.model, 'x/y')
  assert.deepEqual(Object.keys(opencode.mcp), ['docs', 'sangam'])
  const mcpJson = JSON.parse(readFileSync(join(where.projectRoot, '.mcp.json'), 'utf8'))
  assert.deepEqual(Object.keys(mcpJson.mcpServers), ['github', 'sangam'])
  assert.deepEqual(mcpJson.other, { keep: true })
  const edited = readFileSync(join(where.codexHome, 'config.toml'), 'utf8')
  assert.ok(edited.startsWith(`${toml}\n\n[mcp_servers.sangam]\n`))
  assert.deepEqual(Object.keys(parse(edited).mcp_servers as object), ['docs', 'sangam'])
})

test('an existing, different sangam entry is the user’s and is kept', async () => {
  await using dir = tmpDir()
  const where = targets(dir.path)
  const custom = { mcpServers: { sangam: { command: 'sangam', args: ['mcp'] } } }
  writeFileSync(join(where.projectRoot, '.mcp.json'), JSON.stringify(custom))
  mkdirSync(where.codexHome)
  writeFileSync(
    join(where.codexHome, 'config.toml'),
    '[mcp_servers.sangam]\ncommand = "sangam"\nargs = ["mcp"]\n',
  )
  // The user's opencode.json: their other keys and servers, and their own sangam entry, stay.
  const opencode = { model: 'x/y', mcp: { sangam: { type: 'local', command: ['sangam', 'mcp'] } } }
  writeFileSync(join(where.projectRoot, 'opencode.json'), JSON.stringify(opencode))
  const result = registerMcpServer(where, { claude: launch, codex: launch, gemini: launch, opencode: launch })
  assert.deepEqual(
    result.map((entry) => entry.outcome),
    ['kept', 'kept', 'added', 'kept'],
  )
  assert.deepEqual(JSON.parse(readFileSync(join(where.projectRoot, 'opencode.json'), 'utf8')), opencode)
  assert.deepEqual(JSON.parse(readFileSync(join(where.projectRoot, '.mcp.json'), 'utf8')), custom)
})

test('a malformed .mcp.json or config.toml is a clear error and neither file is touched', async () => {
  for (const broken of ['claude', 'codex'] as const) {
    await using dir = tmpDir()
    const where = targets(dir.path)
    mkdirSync(where.codexHome)
    const mcpPath = join(where.projectRoot, '.mcp.json')
    const tomlPath = join(where.codexHome, 'config.toml')
    const mcpText = broken === 'claude' ? '{"mcpServers": {"a": ' : '{"mcpServers": {}}'
    const tomlText = broken === 'codex' ? 'model = "o4\n[[broken' : 'model = "o4"\n'
    writeFileSync(mcpPath, mcpText)
    writeFileSync(tomlPath, tomlText)
    assert.throws(
      () => registerMcpServer(where, { claude: launch, codex: launch, gemini: launch, opencode: launch }),
      (error: unknown) =>
        error instanceof SangamError &&
        error.code === ErrorCode.InvalidInput &&
        error.message.includes(
          broken === 'claude' ? '.mcp.json: it is not valid JSON' : 'config.toml: it is not valid TOML',
        ) &&
        error.message.includes('left unchanged'),
    )
    assert.equal(readFileSync(mcpPath, 'utf8'), mcpText)
    assert.equal(readFileSync(tomlPath, 'utf8'), tomlText)
  }
})

test('mcp_servers written as an inline table cannot be extended; the error says what to add', async () => {
  await using dir = tmpDir()
  const where = targets(dir.path)
  mkdirSync(where.codexHome)
  const text = 'mcp_servers = { docs = { command = "docs-mcp" } }\n'
  writeFileSync(join(where.codexHome, 'config.toml'), text)
  assert.throws(
    () => registerMcpServer(where, { claude: launch, codex: launch, gemini: launch, opencode: launch }),
    /add this by hand:\n\[mcp_servers\.sangam\]/,
  )
  assert.equal(readFileSync(join(where.codexHome, 'config.toml'), 'utf8'), text)
})

test('paths with quotes and backslashes are written as valid TOML', async () => {
  await using dir = tmpDir()
  const where = targets(dir.path)
  const odd = sangamLaunch('C:\\Program Files\\node.exe', '/opt/"quoted" dir/dist/cli/main.js')
  registerMcpServer(where, { claude: odd, codex: odd, gemini: odd, opencode: odd })
  const servers = parse(readFileSync(join(where.codexHome, 'config.toml'), 'utf8')).mcp_servers as Record<
    string,
    unknown
  >
  assert.deepEqual(servers.sangam, {
    command: 'C:\\Program Files\\node.exe',
    args: ['/opt/"quoted" dir/dist/mcp/mcp-main.cjs'],
    env_vars: ['SANGAM_HOME', 'SANGAM_USER', 'SANGAM_LOG'],
  })
})

test("sangam-mcp on PATH is portable where npm linked it, not in npx's folder for one command", async () => {
  await using dir = tmpDir()
  const mcp = (root: string): string => join(root, 'node_modules', 'sangam', 'dist', 'mcp', 'mcp-main.cjs')
  const linked = (root: string): { bin: string; cli: string } => {
    mkdirSync(join(root, 'node_modules', 'sangam', 'dist', 'mcp'), { recursive: true })
    writeFileSync(mcp(root), '')
    const bin = join(root, 'node_modules', '.bin')
    mkdirSync(bin, { recursive: true })
    symlinkSync(mcp(root), join(bin, 'sangam-mcp'))
    return { bin, cli: join(root, 'node_modules', 'sangam', 'dist', 'cli', 'main.js') }
  }
  const global = linked(join(dir.path, 'prefix', 'lib'))
  assert.equal(isSangamOnPath(['/usr/bin', global.bin].join(delimiter), global.cli), true)
  const npx = linked(join(dir.path, '.npm', '_npx', '3f2a9c'))
  assert.equal(isSangamOnPath(['/usr/bin', npx.bin].join(delimiter), npx.cli), false)
  assert.equal(isSangamOnPath(global.bin, npx.cli), false, "another install's sangam-mcp is not this one")
})
